package ratelimit

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Redis keeps buckets in Redis, so that every server process sharing it
// shares each key's bucket. A bucket is a hash of its tokens and the time
// it was last taken from, read and written by one Lua script, which Redis
// runs atomically; the time is Redis's own clock, so the processes'
// clocks need not agree. A bucket expires once it would be full again.
type Redis struct {
	client *redis.Client
	prefix string
}

// NewRedis connects to the Redis server at url (redis://host:port/db)
// and checks that it answers. prefix starts every key it writes.
func NewRedis(ctx context.Context, url, prefix string) (*Redis, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	c := redis.NewClient(opt)
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("redis: %w", err)
	}
	return &Redis{client: c, prefix: prefix}, nil
}

// Close closes the connections.
func (r *Redis) Close() error { return r.client.Close() }

// take is the token bucket of decide, in Redis: KEYS[1] the bucket,
// ARGV[1] the rate a minute. It returns the tokens left (as a string, to
// keep the fraction) and whether the request is allowed.
var take = redis.NewScript(`
local size = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local b = redis.call('HMGET', KEYS[1], 'tokens', 'last', 'rate')
local tokens, last = size, now
if b[1] and tonumber(b[3]) == size then
  tokens = tonumber(b[1])
  last = tonumber(b[2])
end
local per_second = size / 60
if now > last then
  tokens = math.min(size, tokens + (now - last) * per_second)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(now), 'rate', tostring(size))
redis.call('PEXPIRE', KEYS[1], math.ceil((size - tokens) / per_second * 1000) + 1000)
return {tostring(tokens), allowed}
`)

// Take implements Limiter.
func (r *Redis) Take(ctx context.Context, key string, perMinute int) (Decision, error) {
	res, err := take.Run(ctx, r.client, []string{r.prefix + key}, perMinute).Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("redis: %w", err)
	}
	if len(res) != 2 {
		return Decision{}, fmt.Errorf("redis: the rate script answered %v", res)
	}
	s, _ := res[0].(string)
	tokens, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Decision{}, fmt.Errorf("redis: the rate script answered %v", res)
	}
	allowed, _ := res[1].(int64)
	size := float64(perMinute)
	d := Decision{Allowed: allowed == 1, Limit: perMinute, Remaining: int(tokens), Reset: seconds((size - tokens) / (size / 60))}
	if !d.Allowed {
		d.RetryAfter = seconds((1 - tokens) / (size / 60))
	}
	return d, nil
}

var _ Limiter = (*Redis)(nil)
var _ Limiter = (*Memory)(nil)
