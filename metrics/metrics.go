// Package metrics exposes the server's Prometheus metrics: requests by
// route and status, write transactions, database connection pools, and
// the depth of work queues. The metrics are served on a listener of their
// own (serve --metrics ADDR), never beside the API.
package metrics

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one server's registry of metrics.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	tx       *prometheus.HistogramVec
	queues   *queueCollector
}

// New makes a registry holding the Go runtime's and the process's
// metrics and the server's own.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "practiced_http_requests_total",
			Help: "Requests answered, by route pattern and status code.",
		}, []string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "practiced_http_request_duration_seconds",
			Help:    "Time from a request's arrival to the end of its answer, by route pattern and status code.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "status"}),
		tx: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "practiced_db_transaction_duration_seconds",
			Help:    "Time from the start of a write transaction to its durable commit or its rollback, by result.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"result"}),
		queues: &queueCollector{depth: map[string]func(context.Context) (int, error){}},
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.tx, m.queues,
	)
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// ObserveRequest counts one answered request. route is the pattern the
// request matched ("GET /v1/clients/{client}"), or "unmatched": never
// the path, whose ids would make a series per record.
func (m *Metrics) ObserveRequest(route string, status int, elapsed time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, code).Inc()
	m.latency.WithLabelValues(route, code).Observe(elapsed.Seconds())
}

// ObserveTransaction records one write transaction's time; err is what
// it returned (nil when it committed).
func (m *Metrics) ObserveTransaction(elapsed time.Duration, err error) {
	result := "commit"
	if err != nil {
		result = "rollback"
	}
	m.tx.WithLabelValues(result).Observe(elapsed.Seconds())
}

// DBPools reports the connection pools stats returns, by pool name, at
// every scrape.
func (m *Metrics) DBPools(stats func() map[string]sql.DBStats) {
	m.reg.MustRegister(&poolCollector{stats: stats})
}

// QueueDepth reports, at every scrape, the number of items depth counts
// in the named queue (webhook deliveries, messages), as
// practiced_queue_depth{queue="name"}. A queue whose count fails is left
// out of that scrape.
func (m *Metrics) QueueDepth(name string, depth func(context.Context) (int, error)) error {
	m.queues.mu.Lock()
	defer m.queues.mu.Unlock()
	if _, ok := m.queues.depth[name]; ok {
		return errors.New("metrics: queue " + name + " is already reported")
	}
	m.queues.depth[name] = depth
	return nil
}

var (
	poolOpen    = prometheus.NewDesc("practiced_db_connections", "Open database connections, by pool and state (in_use, idle).", []string{"pool", "state"}, nil)
	poolMax     = prometheus.NewDesc("practiced_db_connections_max", "The most connections the pool may open.", []string{"pool"}, nil)
	poolWaits   = prometheus.NewDesc("practiced_db_connection_waits_total", "Times a query waited for a free connection.", []string{"pool"}, nil)
	poolWaited  = prometheus.NewDesc("practiced_db_connection_wait_seconds_total", "Time spent waiting for a free connection.", []string{"pool"}, nil)
	queueLength = prometheus.NewDesc("practiced_queue_depth", "Items waiting in a work queue.", []string{"queue"}, nil)
)

type poolCollector struct {
	stats func() map[string]sql.DBStats
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolOpen
	ch <- poolMax
	ch <- poolWaits
	ch <- poolWaited
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	for name, s := range c.stats() {
		ch <- prometheus.MustNewConstMetric(poolOpen, prometheus.GaugeValue, float64(s.InUse), name, "in_use")
		ch <- prometheus.MustNewConstMetric(poolOpen, prometheus.GaugeValue, float64(s.Idle), name, "idle")
		ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(s.MaxOpenConnections), name)
		ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.WaitCount), name)
		ch <- prometheus.MustNewConstMetric(poolWaited, prometheus.CounterValue, s.WaitDuration.Seconds(), name)
	}
}

type queueCollector struct {
	mu    sync.Mutex
	depth map[string]func(context.Context) (int, error)
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- queueLength }

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for name, depth := range c.depth {
		if n, err := depth(ctx); err == nil {
			ch <- prometheus.MustNewConstMetric(queueLength, prometheus.GaugeValue, float64(n), name)
		}
	}
}
