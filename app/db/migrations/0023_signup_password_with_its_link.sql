-- Issue 17, the GoTrue pre-confirmation hijack: a password chosen at sign-up travels with the
-- confirmation link that sign-up sent, and becomes the account's password only when that link
-- (or its code) is redeemed. Someone who signs up first with another person's address cannot
-- keep a password on the account that person later confirms.
alter table auth.one_time_tokens add column password_hash text;
