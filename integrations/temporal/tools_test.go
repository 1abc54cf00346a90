package tntemporal_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// probe counts what the test tools did in this process.
type probe struct {
	mu        sync.Mutex
	runs      map[string]int // handler runs per tool
	mw        map[string]int // middleware runs per tool
	outcomes  []toolnexus.Outcome
	running   atomic.Int32
	maxInFly  atomic.Int32
	cancelled atomic.Int32 // slow tools that saw their context cancelled
	attempts  atomic.Int32 // attempts of flaky
	dir       string       // when set, each handler run also leaves a file here (runs across processes)
}

func newProbe() *probe { return &probe{runs: map[string]int{}, mw: map[string]int{}} }

func (p *probe) ran(name string) {
	p.mu.Lock()
	p.runs[name]++
	p.mu.Unlock()
	if p.dir != "" {
		f, err := os.CreateTemp(p.dir, name+"-")
		if err != nil {
			panic(err)
		}
		f.Close()
	}
}

// runsIn counts the runs of the tool named name that left a file in dir.
func runsIn(dir, name string) int {
	m, _ := filepath.Glob(filepath.Join(dir, name+"-*"))
	return len(m)
}

func (p *probe) count(m map[string]int, name string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return m[name]
}

func (p *probe) enter() func() {
	n := p.running.Add(1)
	for {
		m := p.maxInFly.Load()
		if n <= m || p.maxInFly.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { p.running.Add(-1) }
}

type addIn struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

type sum struct {
	Sum int64 `json:"sum"`
}

type chargeIn struct {
	Account string `json:"account" minLength:"1"`
	Cents   int    `json:"cents" minimum:"1"`
}

type slowIn struct {
	Millis int  `json:"millis" minimum:"0"`
	Hang   bool `json:"hang,omitempty"` // ignore the context, heartbeat never
}

type bigIn struct {
	Bytes int `json:"bytes" minimum:"0"`
}

type flakyIn struct {
	HangFirst bool `json:"hang_first,omitempty"` // the first attempt hangs without a heartbeat
}

// testToolkit returns the tools of the tests, which report to p.
func testToolkit(p *probe) *toolnexus.Toolkit { return testToolkitWith(p) }

// approvalToolkit is testToolkit where charge needs approval, and add
// when its sum passes 100.
func approvalToolkit(p *probe) *toolnexus.Toolkit {
	return testToolkitWith(p, toolnexus.WithApproval("charge"),
		toolnexus.WithApprovalIf("add", func(ctx context.Context, c *toolnexus.Call) bool {
			in := c.Input().(addIn)
			return in.A+in.B > 100
		}))
}

// testToolkitWith is testToolkit with more options.
func testToolkitWith(p *probe, more ...toolnexus.ToolkitOption) *toolnexus.Toolkit {
	add := define.MustDefineTool(func(ctx context.Context, in addIn) (sum, error) {
		p.ran("add")
		defer p.enter()()
		time.Sleep(20 * time.Millisecond)
		return sum{in.A + in.B}, nil
	}, define.WithName("add"), define.WithDescription("adds two integers"),
		define.WithAnnotations(define.Annotations{ReadOnly: define.HintTrue}))
	charge := define.MustDefineTool(func(ctx context.Context, in chargeIn) (string, error) {
		p.ran("charge")
		defer p.enter()()
		if in.Account == "closed" {
			return "", errors.New("account closed")
		}
		switch in.Account {
		case "hang":
			time.Sleep(time.Hour) // a stuck payment provider
		case "slow":
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(5 * time.Second):
			}
		}
		return fmt.Sprintf("charged %d to %s", in.Cents, in.Account), nil
	}, define.WithName("charge"), define.WithDescription("charges an account"),
		define.WithAnnotations(define.Annotations{Destructive: define.HintTrue, Idempotent: define.HintFalse}))
	slow := define.MustDefineTool(func(ctx context.Context, in slowIn) (string, error) {
		p.ran("slow")
		defer p.enter()()
		if in.Hang {
			time.Sleep(time.Duration(in.Millis) * time.Millisecond)
			return "woke", nil
		}
		// An attempt after a lost one reads how far that one got.
		var earlier int
		resumed, err := tntemporal.HeartbeatDetails(ctx, &earlier)
		if err != nil {
			return "", err
		}
		deadline := time.After(time.Duration(in.Millis) * time.Millisecond)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := 1; ; i++ {
			select {
			case <-ctx.Done():
				p.cancelled.Add(1)
				return "", ctx.Err()
			case <-deadline:
				if resumed {
					return fmt.Sprintf("slept, after an attempt that got to tick %d", earlier), nil
				}
				return "slept", nil
			case <-tick.C:
				tntemporal.Heartbeat(ctx, i)
			}
		}
	}, define.WithName("slow"), define.WithDescription("sleeps"),
		define.WithAnnotations(define.Annotations{ReadOnly: define.HintTrue}))
	boom := define.MustDefineTool(func(ctx context.Context, in struct{}) (string, error) {
		p.ran("boom")
		panic("kaboom")
	}, define.WithName("boom"), define.WithDescription("panics"))
	flaky := define.MustDefineTool(func(ctx context.Context, in flakyIn) (string, error) {
		p.ran("flaky")
		n := p.attempts.Add(1)
		var last int
		had, err := tntemporal.HeartbeatDetails(ctx, &last)
		if err != nil {
			return "", err
		}
		if in.HangFirst && n == 1 {
			tntemporal.Heartbeat(ctx, 41)
			time.Sleep(time.Hour) // a worker that is stuck: no heartbeats
		}
		return fmt.Sprintf("attempt %d, earlier progress %v %d", n, had, last), nil
	}, define.WithName("flaky"), define.WithDescription("hangs on its first attempt"),
		define.WithAnnotations(define.Annotations{Idempotent: define.HintTrue}))
	big := define.MustDefineTool(func(ctx context.Context, in bigIn) (string, error) {
		p.ran("big")
		return strings.Repeat("x", in.Bytes), nil
	}, define.WithName("big"), define.WithDescription("a long text"), define.WithMaxOutputBytes(8<<20))
	mw := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			p.mu.Lock()
			p.mw[c.Name]++
			p.mu.Unlock()
			if c.Name == "charge" && string(c.Args()) == `{"account":"blocked","cents":1}` {
				return toolnexus.Denied("account is blocked")
			}
			return next(ctx, c)
		}
	}
	obs := func(ctx context.Context, e toolnexus.Event) {
		p.mu.Lock()
		p.outcomes = append(p.outcomes, e.Outcome)
		p.mu.Unlock()
	}
	tk, err := toolnexus.NewToolkitWith([]define.Tool{add, charge, slow, boom, flaky, big},
		append([]toolnexus.ToolkitOption{toolnexus.WithMiddleware(mw), toolnexus.WithObserver(obs)}, more...)...)
	if err != nil {
		panic(err)
	}
	return tk
}

// testTools are the tools as activities, with the short timeouts of the
// tests.
func testTools(tk *toolnexus.Toolkit, opts ...tntemporal.Option) *tntemporal.Tools {
	base := []tntemporal.Option{
		tntemporal.WithActivityOptions(workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second, HeartbeatTimeout: 2 * time.Second}),
		tntemporal.WithTool("charge", tntemporal.ToolOptions{Activity: workflow.ActivityOptions{StartToCloseTimeout: 3 * time.Second}}),
		tntemporal.WithTool("flaky", tntemporal.ToolOptions{ManualHeartbeat: true}),
		tntemporal.WithTool("slow", tntemporal.ToolOptions{}),
	}
	t, err := tntemporal.New(tk, append(base, opts...)...)
	if err != nil {
		panic(err)
	}
	return t
}

// turnWorkflowName is the name the tests register turnWorkflow under.
const turnWorkflowName = "toolnexus.test.turn"

// turnWorkflow runs one turn's calls.
func turnWorkflow(tools *tntemporal.Tools) func(ctx workflow.Context, calls []adapters.Call) ([]define.Result, error) {
	return func(ctx workflow.Context, calls []adapters.Call) ([]define.Result, error) {
		return tools.Run(ctx, calls), nil
	}
}

// call is a call of tool with args.
func call(id, tool, args string) adapters.Call {
	return adapters.Call{ID: id, Name: tool, Args: []byte(args)}
}
