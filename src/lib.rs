//! Test and benchmark host package.
