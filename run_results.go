package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/echo"
)

// The results a call gets when its tool gave none: each is made here,
// and only here, whichever of Run, RunStream, Resume and the lifecycle
// decides it.

// panicResult is the result of a call of tool whose code panicked with v
// outside define's own recovery (a middleware, an approval predicate, the
// code around a handler); its Output is one line, as define's is.
func panicResult(tool string, v any) define.Result {
	err := &define.PanicError{Tool: tool, Value: v, Stack: debug.Stack()}
	out := "tool " + tool + " failed with an internal error: " + echo.Value(v, define.MaxEchoedPanic)
	if strings.ContainsAny(out, "\r\n") {
		out = strings.Join(strings.Fields(out), " ")
	}
	return define.Result{Output: out, IsError: true, Err: err}
}

// exitedResult is the result of a call of tool whose code ended its
// goroutine (runtime.Goexit) without returning.
func exitedResult(tool string) define.Result {
	err := fmt.Errorf("tool %s: %w (runtime.Goexit)", tool, ErrToolExited)
	return define.Result{Output: "the tool ended without a result", IsError: true, Err: err}
}

// slotsHeldResult is the result of a call of tool not started because
// each of slots was held by an abandoned call whose tool had not
// returned.
func slotsHeldResult(tool string, slots int) define.Result {
	err := fmt.Errorf("tool %s not run: %w (%d still running)", tool, ErrSlotsHeld, slots)
	return define.Result{Output: "not run: every slot was held by an earlier call that timed out and is still running", IsError: true, Err: err}
}

// Abandoned returns the result of a call of tool that was still running
// when cause (its context's error) ended it: an error result wrapping
// [ErrAbandoned] and cause, whose Output is "the tool timed out" past a
// deadline, else "the tool did not finish: " and cause. It is what
// [Toolkit.Run] gives such a call, for code that bounds calls outside Run
// under the same options (see [RunSettings]).
func Abandoned(tool string, cause error) define.Result {
	return abandonedResult(tool, cause)
}

func abandonedResult(tool string, cause error) define.Result {
	err := fmt.Errorf("tool %s: %w: %w", tool, ErrAbandoned, cause)
	msg := "the tool did not finish: " + cause.Error()
	if errors.Is(cause, context.DeadlineExceeded) {
		msg = "the tool timed out"
	}
	return define.Result{Output: msg, IsError: true, Err: err}
}

// notStarted is the result of a call of tool not started because of
// cause, the context's error.
func notStarted(tool string, cause error) define.Result {
	e := &notStartedError{tool: tool, cause: cause}
	return e.result(notStartedText(cause))
}

// notStartedText is the output of a call not started because of cause.
func notStartedText(cause error) string { return "cancelled before the tool ran: " + cause.Error() }

// notStartedError is the error of a call that was not started: "tool
// NAME not run: CAUSE", wrapping the cause.
type notStartedError struct {
	tool  string
	cause error
}

func (e *notStartedError) Error() string { return "tool " + e.tool + " not run: " + e.cause.Error() }
func (e *notStartedError) Unwrap() error { return e.cause }

// result is the result of the call e was not started: msg is
// notStartedText of e's cause, which calls not started together share.
func (e *notStartedError) result(msg string) define.Result {
	return define.Result{Output: msg, IsError: true, Err: e}
}
