package tnmcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// ErrBusy is wrapped by the Err of the result of a call that was not
// started because every slot of its [Limits] stayed taken until the
// call's context ended (the client cancelled it, or its timeout passed
// while it waited).
var ErrBusy = errors.New("every call slot of the server is taken")

// Limits bounds the tool calls of a server, all its sessions together,
// with the options of [toolnexus.Toolkit.Run]:
// [toolnexus.WithParallelism] is how many tool bodies run at once, and
// [toolnexus.WithCallTimeout] how long one call may take, counted from
// when its request arrives.
//
// A call beyond the bound waits for a slot, as long as its context lasts
// (the client's cancellation and the call timeout end it); a call whose
// context ends while it waits is not started and its result is an error
// wrapping [ErrBusy]. A call whose context ends while its tool runs is
// answered at once with an error wrapping [toolnexus.ErrAbandoned] ("the
// tool timed out"); a tool that ignores its context keeps its slot until
// it returns, so that the bound holds for the tool bodies running,
// abandoned ones included, as in Run. Each replica of a server has its own
// Limits: the bound is per process.
//
// The zero Limits is not usable; make one with [NewLimits]. It is safe
// for concurrent use.
type Limits struct {
	slots   chan struct{}
	timeout time.Duration
}

// NewLimits returns the Limits that opts set (see [toolnexus.RunSettings]):
// without options, at most [toolnexus.DefaultParallelism] calls at once
// and no call timeout.
func NewLimits(opts ...toolnexus.RunOption) *Limits {
	n, d := toolnexus.RunSettings(opts...)
	return &Limits{slots: make(chan struct{}, n), timeout: d}
}

// AddTools is [AddTools] with l's bounds on every call of the tools it
// registers.
func (l *Limits) AddTools(server *mcp.Server, tk *toolnexus.Toolkit, opts ...adapters.Option) error {
	tools, err := Tools(tk, opts...)
	if err != nil {
		return err
	}
	for i, t := range tk.Tools() {
		server.AddTool(tools[i], l.Wrap(t.Name(), ToolkitHandler(tk, t.Name())))
	}
	return nil
}

// answer is what a handler returned.
type answer struct {
	res *mcp.CallToolResult
	err error
}

// Wrap returns h, the handler of the tool named name, under l's bounds:
// h runs on a goroutine of its own once a slot is free, with the call's
// context bounded by the call timeout, and the call is answered when h
// returns or when that context ends, whichever is first. A panic of h
// (outside a tool, whose panics define turns into results) is an error
// result, not a crash of the server.
func (l *Limits) Wrap(name string, h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if l.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, l.timeout)
			defer cancel()
		}
		select {
		case l.slots <- struct{}{}:
		case <-ctx.Done():
			cause := context.Cause(ctx)
			return Result(define.Result{
				Output:  fmt.Sprintf("the server is busy: the tool %s was not started (%d calls running)", name, cap(l.slots)),
				IsError: true,
				Err:     fmt.Errorf("tnmcp: tool %s not run: %w: %w", name, ErrBusy, cause),
			}), nil
		}
		// Buffered, so that the tool's goroutine never blocks on a call
		// that was answered without it.
		done := make(chan answer, 1)
		go func() {
			returned := false
			defer func() {
				<-l.slots
				if returned {
					return
				}
				msg := "the tool exited without returning"
				if p := recover(); p != nil {
					msg = fmt.Sprintf("the tool's handler panicked: %v", p)
				}
				done <- answer{res: Result(define.Result{Output: msg, IsError: true, Err: errors.New("tnmcp: " + msg)})}
			}()
			res, err := h(ctx, req)
			returned = true
			done <- answer{res, err}
		}()
		select {
		case a := <-done:
			return a.res, a.err
		case <-ctx.Done():
			select {
			case a := <-done: // it returned as the context ended
				return a.res, a.err
			default:
			}
			return Result(toolnexus.Abandoned(name, context.Cause(ctx))), nil
		}
	}
}
