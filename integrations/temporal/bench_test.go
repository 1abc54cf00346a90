package tntemporal_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
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

// TestServerScale, with TOOLNEXUS_TEMPORAL_SCALE=1 (it takes about half a
// minute, so make test does not run it): several worker processes (the
// test binary as a child, TNTEMPORAL_SCALE_WORKERS, default 3) on one
// task queue, TNTEMPORAL_SCALE_RUNS workflows (default 300) of
// TNTEMPORAL_SCALE_CALLS calls each (default 4: add, 20 ms each) started
// at once; it reports the turns and calls completed per second and the
// latency of a turn from its start request to its result (median, 95th
// percentile), and checks every result.
//
//	TOOLNEXUS_TEMPORAL_SCALE=1 go test -run TestServerScale -v
func TestServerScale(t *testing.T) {
	if os.Getenv("TOOLNEXUS_TEMPORAL_SCALE") != "1" {
		t.Skip("set TOOLNEXUS_TEMPORAL_SCALE=1 to run it (about half a minute)")
	}
	num := func(env string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(env)); err == nil && n > 0 {
			return n
		}
		return def
	}
	runs, workers, ncalls := num("TNTEMPORAL_SCALE_RUNS", 300), num("TNTEMPORAL_SCALE_WORKERS", 3), num("TNTEMPORAL_SCALE_CALLS", 4)
	c := dial(t)
	queue := "scale-" + time.Now().Format("150405.000000")
	for range workers {
		w := childProcess(t, childWorkerEnv+"="+queue)
		w.Stderr = os.Stderr
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Process.Signal(syscall.SIGTERM); _ = w.Wait() })
	}
	calls := make([]adapters.Call, ncalls)
	for i := range calls {
		calls[i] = call(fmt.Sprint(i), "add", fmt.Sprintf(`{"a":%d,"b":1}`, i))
	}
	// One turn first, so that every worker process is polling.
	warm, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: queue + "-warm", TaskQueue: queue}, turnWorkflowName, calls)
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.Get(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	lat := make([]time.Duration, runs)
	var wg sync.WaitGroup
	errs := make(chan error, runs)
	for i := range runs {
		// Started from goroutines of their own: one client starting them
		// one after another would bound the rate, not the workers.
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			began := time.Now()
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d", queue, i), TaskQueue: queue}, turnWorkflowName, calls)
			if err != nil {
				errs <- err
				return
			}
			var got []define.Result
			if err := run.Get(ctx, &got); err != nil {
				errs <- err
				return
			}
			lat[i] = time.Since(began)
			for j, r := range got {
				if want := fmt.Sprintf(`{"sum":%d}`, j+1); r.Output != want {
					errs <- fmt.Errorf("run %d, call %d: %q, want %q", i, j, r.Output, want)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	slices.Sort(lat)
	t.Logf("%d runs of %d calls, %d worker processes: %.1f s, %.1f turns/s, %.1f calls/s; a turn's latency: median %s, p95 %s",
		runs, ncalls, workers, elapsed.Seconds(), float64(runs)/elapsed.Seconds(), float64(runs*ncalls)/elapsed.Seconds(),
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*95/100].Round(time.Millisecond))
}
