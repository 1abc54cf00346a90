package tnanthropic

import (
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
	calls, results, pending, err = toolnexus.SplitPending(calls, results)
	if err != nil || len(calls) == 0 {
		return nil, pending, err
	}
	msg, err := toolResults(calls, results, opts)
	if err != nil {
		return nil, nil, err
	}
	return []anthropic.MessageParam{msg}, pending, nil
}
