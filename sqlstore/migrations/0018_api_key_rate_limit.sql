-- A key's own rate limit, in requests a minute; NULL keeps the server's
-- default (serve --rate-limit).
ALTER TABLE api_keys ADD COLUMN rate_per_minute INTEGER;
