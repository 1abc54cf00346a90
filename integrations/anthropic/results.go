package tnanthropic

import (
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Results renders the results of calls, one to one and in call order (as
// [toolnexus.Toolkit.Run] returns them), as the user message of
// tool_result blocks that answers them, as [adapters.AnthropicResults]
// renders it (is_error on error results, a result's images and documents
// as the SDK's image and document blocks of its content; opts are its
// options, e.g. [adapters.MediaAsNote]; a text content, which adapters
// writes as a string, is the one text block the SDK's type holds, which
// the API reads the same): next holds that one message, or none when
// every call is pending.
//
// A call waiting for approval (its result pending, see
// [toolnexus.PendingCalls]) gets no block: it is held out of next and
// returned in pending, to store until a person decides. The API rejects a
// request in which a tool_use goes unanswered, so send nothing until
// then: [toolnexus.Toolkit.Resume] gives the pending calls' results, and
// Results again, on each PendingCall's Call and those results, renders
// them as a second user message to append after next (the API joins
// consecutive user turns into one); or put the resumed results at each
// PendingCall's Index among the batch's results and render the whole
// batch once.
func Results(calls []adapters.Call, results []define.Result, opts ...adapters.Option) (next []anthropic.MessageParam, pending []toolnexus.PendingCall, err error) {
	calls, results, pending, err = holdPending(calls, results)
	if err != nil || len(calls) == 0 {
		return nil, pending, err
	}
	msg, err := toolResults(calls, results, opts)
	if err != nil {
		return nil, nil, err
	}
	return []anthropic.MessageParam{msg}, pending, nil
}

// holdPending splits a batch into the calls that have a result to render
// and the pending calls (a *toolnexus.PendingError result), keeping the
// order of each. calls and results are returned as they are when none is
// pending.
func holdPending(calls []adapters.Call, results []define.Result) ([]adapters.Call, []define.Result, []toolnexus.PendingCall, error) {
	if len(calls) != len(results) {
		return nil, nil, nil, fmt.Errorf("tnanthropic: %d calls and %d results: %w", len(calls), len(results), adapters.ErrResultCount)
	}
	var pending []toolnexus.PendingCall
	var keptCalls []adapters.Call
	var keptResults []define.Result
	for i := range results {
		var pe *toolnexus.PendingError
		if results[i].IsError && errors.As(results[i].Err, &pe) {
			if pending == nil {
				keptCalls = append(make([]adapters.Call, 0, len(calls)-1), calls[:i]...)
				keptResults = append(make([]define.Result, 0, len(calls)-1), results[:i]...)
			}
			pending = append(pending, pe.Call)
			continue
		}
		if pending != nil {
			keptCalls, keptResults = append(keptCalls, calls[i]), append(keptResults, results[i])
		}
	}
	if pending == nil {
		return calls, results, nil, nil
	}
	return keptCalls, keptResults, pending, nil
}
