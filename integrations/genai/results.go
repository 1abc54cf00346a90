package tngenai

import (
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
	calls, results, pending, err = toolnexus.SplitPending(calls, results)
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
