//! The judge: an optional re-ranker run after the literal search. The best candidates go
//! to a local process that rates, item by item, the probability that the item helps
//! answer the question, and the answer is shaped by those ratings (`rules`). A judge is
//! never trusted with the search itself: whatever it does (crash, hang, garbage, missing
//! command), the literal answer comes back and `--explain` says why (docs/judge.md).
pub mod protocol;
pub mod rules;
pub mod verdict;
