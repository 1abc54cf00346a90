package tnopenai

import (
	"encoding/base64"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Results renders the results of calls, one to one and in call order (as
// [toolnexus.Toolkit.Run] returns them), as the Chat Completions messages
// that answer them: one tool message per call, then, when results carry
// images, PDF files or audio, the user message of their media, as
// [adapters.OpenAIResultsAndMedia] renders them (opts are its options,
// e.g. [adapters.MediaAsNote]).
//
// A call waiting for approval (its result pending, see
// [toolnexus.PendingCalls]) gets no message: it is held out of next and
// returned in pending, to store until a person decides. Chat rejects a
// request in which a tool call goes unanswered, so send nothing until
// then: [toolnexus.Toolkit.Resume] gives the pending calls' results, and
// Results again, on each PendingCall's Call and those results, renders
// them. Their tool messages go with next's, before its media message, if
// any (Chat wants the tool messages right after the assistant's); or put
// the resumed results at each PendingCall's Index among the batch's
// results and render the whole batch once.
func Results(calls []adapters.Call, results []define.Result, opts ...adapters.Option) (next []openai.ChatCompletionMessageParamUnion, pending []toolnexus.PendingCall, err error) {
	calls, results, pending, err = toolnexus.SplitPending(calls, results)
	if err != nil || len(calls) == 0 {
		return nil, pending, err
	}
	next, err = chatResults(calls, results, opts)
	if err != nil {
		return nil, nil, err
	}
	return next, pending, nil
}

// ResponsesResults is [Results] for the Responses API: one
// function_call_output input item per call, in call order, as
// [adapters.OpenAIResponsesResults] renders them (a result's images and
// files in the item's output list), with the calls waiting for approval
// held out and returned in pending. The Responses API, too, wants every
// function call answered before the next request: render the resumed
// results with ResponsesResults and append them before sending.
func ResponsesResults(calls []adapters.Call, results []define.Result, opts ...adapters.Option) (next []responses.ResponseInputItemUnionParam, pending []toolnexus.PendingCall, err error) {
	calls, results, pending, err = toolnexus.SplitPending(calls, results)
	if err != nil || len(calls) == 0 {
		return nil, pending, err
	}
	next, err = responsesResults(calls, results, opts)
	if err != nil {
		return nil, nil, err
	}
	return next, pending, nil
}

// chatResults renders results as the tool messages of calls, then the
// user message of their media: the one conversion of Run, RunTurn and
// Results.
func chatResults(calls []adapters.Call, results []define.Result, opts []adapters.Option) ([]openai.ChatCompletionMessageParamUnion, error) {
	msgs, media, err := adapters.OpenAIResultsAndMedia(calls, results, opts...)
	if err != nil {
		return nil, fmt.Errorf("tnopenai: %w", err)
	}
	next := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs)+1)
	for _, m := range msgs {
		next = append(next, openai.ToolMessage(m.Content, m.ToolCallID))
	}
	if media != nil {
		parts := make([]openai.ChatCompletionContentPartUnionParam, len(media.Content))
		for i, c := range media.Content {
			switch {
			case c.ImageURL != nil:
				parts[i] = openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: c.ImageURL.URL.Text()})
			case c.File != nil:
				parts[i] = openai.FileContentPart(openai.ChatCompletionContentPartFileFileParam{
					FileData: param.NewOpt(c.File.FileData.Text()), Filename: param.NewOpt(c.File.Filename)})
			case c.InputAudio != nil:
				parts[i] = openai.InputAudioContentPart(openai.ChatCompletionContentPartInputAudioInputAudioParam{
					Data: base64.StdEncoding.EncodeToString(c.InputAudio.Data), Format: c.InputAudio.Format})
			default:
				parts[i] = openai.TextContentPart(c.Text)
			}
		}
		next = append(next, openai.UserMessage(parts))
	}
	return next, nil
}

// responsesResults renders results as the function_call_output items of
// calls: the one conversion of RunResponses and ResponsesResults.
func responsesResults(calls []adapters.Call, results []define.Result, opts []adapters.Option) ([]responses.ResponseInputItemUnionParam, error) {
	items, err := adapters.OpenAIResponsesResults(calls, results, opts...)
	if err != nil {
		return nil, fmt.Errorf("tnopenai: %w", err)
	}
	next := make([]responses.ResponseInputItemUnionParam, 0, len(items))
	for _, it := range items {
		var out responses.ResponseInputItemUnionParam
		switch o := it.Output.(type) {
		case []adapters.OpenAIResponsesContent:
			list := make(responses.ResponseFunctionCallOutputItemListParam, len(o))
			for i, c := range o {
				list[i] = outputItem(c)
			}
			out = responses.ResponseInputItemParamOfFunctionCallOutput(list)
		case string:
			out = responses.ResponseInputItemParamOfFunctionCallOutput(o)
		default:
			return nil, fmt.Errorf("tnopenai: the output of call %s is a %T", it.CallID, o)
		}
		out.OfFunctionCallOutput.CallID = param.NewOpt(it.CallID)
		next = append(next, out)
	}
	return next, nil
}
