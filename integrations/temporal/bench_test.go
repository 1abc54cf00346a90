package tntemporal_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/toolnexus/toolnexus/adapters"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// The cost of a tool call as an activity against the real server, next
// to Toolkit.Run in process: a turn of one quick call (add, which sleeps
// 20 ms) and of four, one workflow at a time, on loopback.
//
//	go test -run '^$' -bench . -benchtime 20x
func BenchmarkTurn(b *testing.B) {
	for _, n := range []int{1, 4} {
		calls := make([]adapters.Call, n)
		for i := range calls {
			calls[i] = call(fmt.Sprint(i), "add", `{"a":1,"b":2}`)
		}
		b.Run(fmt.Sprintf("calls=%d/Toolkit.Run", n), func(b *testing.B) {
			tk := testToolkit(newProbe())
			for b.Loop() {
				tk.Run(context.Background(), calls)
			}
		})
		b.Run(fmt.Sprintf("calls=%d/Temporal", n), func(b *testing.B) {
			c := dial(b)
			queue := fmt.Sprintf("bench-%d-%s", n, time.Now().Format("150405.000000"))
			startWorker(b, c, queue, testTools(testToolkit(newProbe()), tntemporal.WithParallelism(n)))
			i := 0
			for b.Loop() {
				i++
				run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d", queue, i), TaskQueue: queue}, turnWorkflowName, calls)
				if err != nil {
					b.Fatal(err)
				}
				if err := run.Get(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Many runs at once: runs workflows of 3 calls each started together and
// served by 3 workers (in this process, on one task queue); reports the
// turns and the tool calls completed per second.
//
//	go test -run '^$' -bench ManyRuns -benchtime 1x
func BenchmarkManyRuns(b *testing.B) {
	const runs, workers = 200, 3
	c := dial(b)
	queue := "many-" + time.Now().Format("150405.000000")
	for range workers {
		startWorker(b, c, queue, testTools(testToolkit(newProbe())))
	}
	calls := []adapters.Call{call("0", "add", `{"a":1,"b":2}`), call("1", "add", `{"a":3,"b":4}`), call("2", "add", `{"a":5,"b":6}`)}
	round := 0
	var elapsed time.Duration
	for b.Loop() {
		round++
		start := time.Now()
		handles := make([]client.WorkflowRun, runs)
		for i := range handles {
			run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d-%d", queue, round, i), TaskQueue: queue}, turnWorkflowName, calls)
			if err != nil {
				b.Fatal(err)
			}
			handles[i] = run
		}
		for _, run := range handles {
			if err := run.Get(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
		}
		elapsed += time.Since(start)
	}
	b.ReportMetric(float64(runs*round)/elapsed.Seconds(), "turns/s")
	b.ReportMetric(float64(3*runs*round)/elapsed.Seconds(), "calls/s")
}
