-- The password grant asks "has this IP signed in to this account lately?" (issue 10: a known
-- device passes the per-address limit). It reads the auth audit log by actor and time, which
-- would otherwise scan the whole log once the address is over its limit.
create index audit_log_entries_actor_created_idx on auth.audit_log_entries (actor_id, created_at);
