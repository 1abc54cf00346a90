package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The call lifecycle. A call of a toolkit with middleware, approvals or
// observers goes, in this order, through:
//
//  1. finding its tool (an unknown name ends the call with its error);
//  2. decoding and validating its arguments (bad arguments end the call,
//     before any middleware);
//  3. the approval gate of a tool that needs approval ([WithApproval]):
//     a call that needs one ends as pending, and nothing after this runs;
//  4. the middleware ([WithMiddleware], then [WithToolMiddleware]), each
//     around the rest, the first given outermost;
//  5. the tool's handler, and the rendering of its output.
//
// The observers ([WithObserver]) then see the result as it is delivered,
// whatever ended the call, Run's timeouts and cancellation included. A
// toolkit with none of these runs its calls as before: no Call is made,
// no clock is read.

// Call is one tool call as the middleware sees it: its arguments decoded
// and validated. A Call is made by the toolkit for each call and is not
// safe for concurrent use; a middleware that hands it to another
// goroutine must wait for that to end before it returns.
type Call struct {
	// ID is the provider's id for the call ([adapters.Call].ID); "" for
	// [Toolkit.Execute] and [Toolkit.ExecuteJSON].
	ID string
	// Name is the tool's name.
	Name string
	// Tool is the tool called.
	Tool define.Tool

	args     json.RawMessage // compact JSON, once Args has made it
	input    map[string]any  // the arguments as they came parsed, if so
	prepared define.Decoded  // the handler's part, until it runs
	value    any             // the decoded input, once Input has boxed it
	hasValue bool
	bad      bool // SetArgs was given bad arguments: res is their result
	res      define.Result
	over     uint32 // 1 once the middleware chain has returned: next no longer runs the handler (atomic)
}

// Args returns the call's validated arguments as one compact JSON object
// (arguments that arrived parsed, as a map, are encoded when first asked
// for). The caller must not modify the slice.
func (c *Call) Args() json.RawMessage {
	if c.args == nil {
		if c.input != nil {
			// Validated, so bounded in depth and of JSON's types.
			data, err := json.Marshal(c.input)
			if err != nil {
				data = []byte("{}")
			}
			c.args = data
		} else {
			c.args = json.RawMessage("{}")
		}
	}
	return c.args
}

// Input returns the call's decoded arguments: the tool's input value (the
// In of define.DefineTool, as an any), or for a define.NewTool tool its
// arguments as a json.RawMessage. It is valid until the handler runs
// (next, for a middleware); after that it returns what it returned
// before, or nil if it was never asked. The first call boxes the value,
// which may allocate.
func (c *Call) Input() any {
	if !c.hasValue {
		if c.prepared != nil {
			c.value, c.hasValue = c.prepared.Input(), true
		}
	}
	return c.value
}

// SetArgs replaces the call's arguments. They go through the tool's
// decoder and validation at once, as the model's did: when they pass,
// the handler runs on them (and Args and Input give them); when they do
// not, SetArgs returns the error (an [*define.ArgErrors]) and the call's
// handler no longer runs: next returns the invalid-arguments result, as
// for a model's bad arguments. The call keeps args: do not modify it
// afterwards.
func (c *Call) SetArgs(args json.RawMessage) error {
	c.prepared, c.value, c.hasValue, c.input, c.bad = nil, nil, false, nil, false
	c.args = compactArgs(args)
	c.res = define.Result{}
	// The context is checked when the handler runs.
	if c.prepared = c.Tool.DecodeJSON(context.Background(), c.args, &c.res); c.prepared == nil {
		c.bad = true
		return c.res.Err
	}
	return nil
}

// compactArgs returns args as compact JSON when it is valid JSON ("" and
// null are {}), else as it is, for the decoder to reject. It may return
// args itself, trimmed, which is then only read.
func compactArgs(args []byte) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage("{}")
	}
	if !bytes.ContainsAny(trimmed, " \t\r\n") {
		return trimmed // compact already (a model's usual arguments): no copy
	}
	var buf bytes.Buffer
	buf.Grow(len(trimmed))
	if err := json.Compact(&buf, trimmed); err != nil {
		return append(json.RawMessage(nil), args...)
	}
	return buf.Bytes()
}

// Handler runs a call: the rest of the lifecycle, for a [Middleware].
type Handler func(ctx context.Context, c *Call) define.Result

// Middleware wraps the handling of a call: it returns a Handler that
// runs before and after next, the rest of the chain. It may
//
//   - let the call go on: return next(ctx, c);
//   - deny it: return [Denied](reason), a result the model sees, without
//     calling next;
//   - replace the arguments with [Call.SetArgs] before next, which
//     validates them again;
//   - inspect or replace the result next returns.
//
// Middleware runs after the arguments are decoded and validated (a call
// with bad arguments, or of an unknown tool, never reaches it; see
// [Observer] for code that sees those) and after the approval gate. A
// toolkit's middleware ([WithMiddleware]) wraps each tool's own
// ([WithToolMiddleware]); within each, the first given is the outermost.
// Middleware runs where the handler runs: never on the goroutine that
// called [Toolkit.Run]. A panic in it is the call's error result, as a
// handler's is. next serves the call only until the chain returns: called
// after that (kept for later, or on a goroutine the middleware did not
// wait for), it returns an error result wrapping [ErrCallEnded] and the
// handler does not run.
type Middleware func(next Handler) Handler

// ErrDenied is wrapped by the Err of the result of a call that a
// middleware or an approver denied ([Denied], [Deny]).
var ErrDenied = errors.New("tool call denied")

// DeniedError is the Err of a denied call's result; it wraps [ErrDenied].
type DeniedError struct {
	Reason string // why, as the model sees it
}

func (e *DeniedError) Error() string {
	if e.Reason == "" {
		return ErrDenied.Error()
	}
	return ErrDenied.Error() + ": " + e.Reason
}

// Unwrap returns [ErrDenied].
func (e *DeniedError) Unwrap() error { return ErrDenied }

// Denied returns the result of a call denied for reason: an error result
// whose Output the model sees ("denied: " and the reason) and whose Err
// is a [*DeniedError]. A [Middleware] returns it instead of calling next.
func Denied(reason string) define.Result {
	out := "denied"
	if reason != "" {
		out = "denied: " + reason
	}
	return define.Result{Output: out, IsError: true, Err: &DeniedError{Reason: reason}}
}

// WithMiddleware adds middleware around every call of every tool of the
// toolkit, after that of earlier WithMiddleware options; the first given
// is the outermost. It wraps each tool's own [WithToolMiddleware].
func WithMiddleware(mw ...Middleware) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.middleware = append(c.middleware, mw...) })
}

// WithToolMiddleware adds middleware around every call of the tool named
// tool, inside the toolkit's [WithMiddleware]; the first given is the
// outermost. A name that is no tool of the toolkit is an error of
// NewToolkitWith.
func WithToolMiddleware(tool string, mw ...Middleware) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) {
		c.named = append(c.named, namedOption{tool: tool, middleware: mw})
	})
}

// Observer sees the result of every call of a toolkit as it is
// delivered: by [Toolkit.Execute] and [Toolkit.ExecuteJSON] before they
// return, and by [Toolkit.Run], [Toolkit.RunStream] and [Toolkit.Resume]
// for each call, in call order, on the caller's goroutine, just before
// they return. It sees every outcome: unknown tools, bad arguments,
// pending and denied calls, tool errors, panics, and the timeouts,
// cancellations and calls not run that Run decides outside the handler
// (for an abandoned call, the abandoned result; the tool's late result is
// dropped unseen). An Observer of a toolkit used from several goroutines
// at once is called from them at once. It is the application's code, not
// a tool's: a panic in it reaches the caller of Execute or Run.
type Observer func(ctx context.Context, e Event)

// Event is what an [Observer] sees of one call.
type Event struct {
	Call     adapters.Call // the call as it came: ID, Name, and Args or Input (a near miss of a name, WithNearMissNames: the tool's Name, SentName as sent)
	Tool     define.Tool   // its tool; zero when Name is none of the toolkit's
	Result   define.Result // the result delivered
	Outcome  Outcome       // the kind of result, [OutcomeOf] Result
	Start    time.Time     // when the call started; zero for a call not started
	Duration time.Duration // from Start to its result
}

// WithObserver adds observers of every call's result, called in the order
// given.
func WithObserver(obs ...Observer) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.observers = append(c.observers, obs...) })
}

// Outcome is the kind of a call's result, for logs and metrics.
type Outcome string

// The outcomes [OutcomeOf] tells apart.
const (
	OutcomeOK           Outcome = "ok"            // the tool returned a result
	OutcomeToolError    Outcome = "tool_error"    // the tool returned an error
	OutcomeBadArguments Outcome = "bad_arguments" // the arguments failed validation: the tool did not run
	OutcomeUnknownTool  Outcome = "unknown_tool"  // no tool of that name
	OutcomePanic        Outcome = "panic"         // the tool panicked (or ended its goroutine: ErrToolExited)
	OutcomeTimeout      Outcome = "timeout"       // a deadline passed: WithCallTimeout, or the context's
	OutcomeCancelled    Outcome = "cancelled"     // the context was cancelled
	OutcomeNotRun       Outcome = "not_run"       // not started: every slot was held (ErrSlotsHeld)
	OutcomeDenied       Outcome = "denied"        // denied by a middleware or an approver
	OutcomePending      Outcome = "pending"       // waiting for approval: the tool did not run
)

// OutcomeOf returns the kind of r, read from r.Err: a result made by hand
// with IsError and no Err is a tool error.
func OutcomeOf(r define.Result) Outcome {
	if !r.IsError {
		return OutcomeOK
	}
	err := r.Err
	var (
		argErrs *define.ArgErrors
		panicE  *define.PanicError
	)
	switch {
	case err == nil:
		return OutcomeToolError
	case errors.Is(err, ErrPending):
		return OutcomePending
	case errors.Is(err, ErrDenied):
		return OutcomeDenied
	case errors.Is(err, ErrUnknownTool):
		return OutcomeUnknownTool
	case errors.As(err, &argErrs):
		return OutcomeBadArguments
	case errors.As(err, &panicE), errors.Is(err, ErrToolExited):
		return OutcomePanic
	case errors.Is(err, ErrSlotsHeld):
		return OutcomeNotRun
	case errors.Is(err, context.DeadlineExceeded):
		return OutcomeTimeout
	case errors.Is(err, context.Canceled):
		return OutcomeCancelled
	}
	return OutcomeToolError
}

// namedOption is what the options naming one tool ask of it.
type namedOption struct {
	tool       string
	middleware []Middleware
	approval   *approvalRule
}

// hooks is what a toolkit runs around its calls; nil when it has
// nothing, so that a call costs one nil check.
type hooks struct {
	chains    []Handler      // per tool, in toolkit order: its middleware around terminal, or nil
	gates     []approvalRule // per tool: whether a call needs approval (zero: never)
	observers []Observer
}

// newHooks resolves the lifecycle options of a toolkit; nil when there
// are none.
func newHooks(tk *Toolkit) (*hooks, error) {
	cfg := &tk.cfg
	if len(cfg.middleware) == 0 && len(cfg.named) == 0 && len(cfg.observers) == 0 {
		return nil, nil
	}
	h := &hooks{}
	for _, o := range cfg.observers {
		if o != nil {
			h.observers = append(h.observers, o)
		}
	}
	perTool := make([][]Middleware, len(tk.tools))
	for _, n := range cfg.named {
		i, ok := tk.byName[n.tool]
		if !ok {
			return nil, fmt.Errorf("toolnexus: NewToolkit: an option names tool %q, which is not in the toolkit", n.tool)
		}
		perTool[i] = append(perTool[i], n.middleware...)
		if n.approval != nil {
			if h.gates == nil {
				h.gates = make([]approvalRule, len(tk.tools))
			}
			h.gates[i] = *n.approval
		}
	}
	for i := range tk.tools {
		mws := append(append([]Middleware(nil), cfg.middleware...), perTool[i]...)
		if len(mws) == 0 {
			continue
		}
		if h.chains == nil {
			h.chains = make([]Handler, len(tk.tools))
		}
		next := Handler(terminal)
		for j := len(mws) - 1; j >= 0; j-- {
			if mws[j] == nil {
				continue
			}
			if next = mws[j](next); next == nil {
				return nil, fmt.Errorf("toolnexus: NewToolkit: tool %s: a middleware returned a nil Handler", tk.names[i])
			}
		}
		h.chains[i] = next
	}
	return h, nil
}

// ErrCallEnded is wrapped by the Err of what next returns when a
// [Middleware] calls it after the chain of that call has returned (it
// kept next, and called it later, perhaps after returning [Denied]): the
// call has its result already, and its handler does not run.
var ErrCallEnded = errors.New("the call has ended")

// terminal is the end of every chain: the tool's handler, on the
// arguments as validated (again, when a middleware replaced them).
func terminal(ctx context.Context, c *Call) define.Result {
	switch {
	case atomic.LoadUint32(&c.over) != 0:
		err := fmt.Errorf("tool %s: %w: next was called after its middleware returned", c.Name, ErrCallEnded)
		return define.Result{Output: "not run: the call had ended before next was called", IsError: true, Err: err}
	case c.bad:
		return c.res
	case c.prepared != nil:
		pc := c.prepared
		c.prepared = nil // Finish runs at most once
		pc.Finish(ctx)
		return c.res
	}
	// next called again (a retry): the arguments are decoded again.
	c.res = define.Result{}
	if pc := c.Tool.DecodeJSON(ctx, c.Args(), &c.res); pc != nil {
		pc.Finish(ctx)
	}
	return c.res
}

// call runs call c, the index-th of its batch, through the lifecycle of
// a toolkit with hooks, observers aside; approved says an approver
// approved it (Resume).
func (tk *Toolkit) call(ctx context.Context, index int, c *adapters.Call, approved bool) (res define.Result) {
	i, found := tk.byName[c.Name]
	if !found {
		return tk.unknownTool(c.Name)
	}
	t, h := tk.tools[i], tk.hooks
	var chain Handler
	if h.chains != nil {
		chain = h.chains[i]
	}
	var gate approvalRule
	if h.gates != nil && !approved {
		gate = h.gates[i]
	}
	if chain == nil && !gate.set {
		if c.Input != nil {
			return t.Execute(ctx, c.Input)
		}
		return t.ExecuteJSON(ctx, c.Args)
	}
	// define recovers its handler's panics; this is for the middleware
	// and the approval predicate, the user's code around it.
	defer func() {
		if v := recover(); v != nil {
			res = panicResult(c.Name, v)
		}
	}()
	call := &Call{ID: c.ID, Name: c.Name, Tool: t}
	if c.Input != nil {
		call.input = c.Input
		call.prepared = t.DecodeMap(ctx, c.Input, &call.res)
	} else {
		call.args = compactArgs(c.Args)
		call.prepared = t.DecodeJSON(ctx, call.args, &call.res)
	}
	if call.prepared == nil {
		return call.res // bad arguments, a done context
	}
	if gate.set && gate.needs(ctx, call) {
		return tk.pendingResult(index, call)
	}
	if chain == nil {
		return terminal(ctx, call)
	}
	// Once the chain has returned (or panicked), the call has its
	// result: a next kept and called later must not run the handler.
	defer atomic.StoreUint32(&call.over, 1)
	return chain(ctx, call)
}

// execute is Execute and ExecuteJSON for a toolkit with hooks.
func (tk *Toolkit) execute(ctx context.Context, c adapters.Call) define.Result {
	obs := tk.hooks.observers
	if len(obs) == 0 {
		return tk.call(ctx, 0, &c, false)
	}
	start := time.Now()
	r := tk.call(ctx, 0, &c, false)
	tk.observe(ctx, &c, r, callTime{start: start, end: time.Now()})
	return r
}

// callTime is when a call started and when it had its result, for the
// observers; zero for a call not started.
type callTime struct{ start, end time.Time }

// observe gives the observers the result r of call c.
func (tk *Toolkit) observe(ctx context.Context, c *adapters.Call, r define.Result, ct callTime) {
	e := Event{Call: *c, Result: r, Outcome: OutcomeOf(r), Start: ct.start}
	if !ct.start.IsZero() && !ct.end.IsZero() {
		e.Duration = ct.end.Sub(ct.start)
	}
	if i, ok := tk.byName[c.Name]; ok {
		e.Tool = tk.tools[i]
	} else if i, ok := tk.nearMiss(c.Name); ok {
		e.Tool = tk.tools[i]
		e.Call.Name, e.Call.SentName = tk.names[i], c.Name
	}
	for _, o := range tk.hooks.observers {
		o(ctx, e)
	}
}

// observeAll gives the observers the results of a batch, in call order;
// times is nil when the toolkit has none.
func (tk *Toolkit) observeAll(ctx context.Context, calls []adapters.Call, results []define.Result, times []callTime) {
	if times == nil {
		return
	}
	for i := range calls {
		tk.observe(ctx, &calls[i], results[i], times[i])
	}
}
