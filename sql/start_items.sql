-- start_items: of the items the session start may list (:ids, a JSON array of ids), those
-- that stand for no session of the person's: an item captured from a sub-agent's
-- transcript (a Claude Code sub-agent's session `<session>/agent-…`, or a transcript
-- that opens with a sub-agent's line, as a Codex sub-agent's does). The start lists the
-- person's sessions; their sub-agents' work is in them.
-- Parameters: :ids, a JSON array of ids.
-- Columns: id.
select i.id
from items i
where i.id in (select cast(value as integer) from json_each(:ids))
  and (i.transcript like '(sub-agent) %'
       or exists (select 1 from capture_segments s
                  where s.item_id = i.id and s.session like '%/agent-%'));
