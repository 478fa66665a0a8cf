-- Rate-limit windows are counters of the current minute, not records: an unlogged table writes no WAL for
-- them, so counting a request commits without waiting for a WAL flush (on PostgreSQL that flush was the
-- larger part of the count, about as long again as the post insert). After a crash PostgreSQL empties the
-- table, which forgets at most the current minute's counts; standbys do not see it (nothing reads it there).
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
