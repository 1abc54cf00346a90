package tngenai

import (
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"google.golang.org/genai"
)

// Results renders the results of calls, one to one and in call order (as
// [toolnexus.Toolkit.Run] returns them), as the contents that answer
// them, as [adapters.GeminiResultsAndMedia] renders them (opts are its
// options, e.g. [adapters.MediaAsNote]): the user content of function
// responses, each echoing its call's id and name (a result's images and
// PDFs inline in its FunctionResponse.Parts), then, when results carry
// parts Gemini takes only in a user content of its own (audio, parts by
// URL), that content. Outputs go as [Run] sends them (a number that
// float64 would change as its JSON text in a string). next is nil when
// every call is pending.
//
// A call waiting for approval (its result pending, see
// [toolnexus.PendingCalls]) gets no function response: it is held out of
// next and returned in pending, to store until a person decides. Gemini
// wants as many function responses as the model's turn made calls, so
// send nothing until then: [toolnexus.Toolkit.Resume] gives the pending
// calls' results, and Results again, on each PendingCall's Call and those
// results, renders them; add their parts to the function responses of
// next[0] (next[0].Parts = append(next[0].Parts, resumed[0].Parts...),
// the media contents after it), or put the resumed results at each
// PendingCall's Index among the batch's results and render the whole
// batch once.
func Results(calls []adapters.Call, results []define.Result, opts ...adapters.Option) (next []*genai.Content, pending []toolnexus.PendingCall, err error) {
	calls, results, pending, err = holdPending(calls, results)
	if err != nil || len(calls) == 0 {
		return nil, pending, err
	}
	parts, media, err := functionResponses(calls, results, true, opts)
	if err != nil {
		return nil, nil, err
	}
	next = []*genai.Content{{Role: genai.RoleUser, Parts: parts}}
	if media != nil {
		next = append(next, media)
	}
	return next, pending, nil
}

// holdPending splits a batch into the calls that have a result to render
// and the pending calls (a *toolnexus.PendingError result), keeping the
// order of each. calls and results are returned as they are when none is
// pending.
func holdPending(calls []adapters.Call, results []define.Result) ([]adapters.Call, []define.Result, []toolnexus.PendingCall, error) {
	if len(calls) != len(results) {
		return nil, nil, nil, fmt.Errorf("tngenai: %d calls and %d results: %w", len(calls), len(results), adapters.ErrResultCount)
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
