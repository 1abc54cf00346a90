// Package tnopenai connects a toolnexus [toolnexus.Toolkit] to OpenAI's Go
// SDK, github.com/openai/openai-go/v3, for both of its APIs: Chat
// Completions ([Tools], [Run]) and Responses ([ResponsesTools],
// [RunResponses]). The tools go in as SDK params holding the rendered JSON
// byte for byte (properties in Go field order, strict schemas as rendered);
// one call per model turn runs the tool calls of the SDK's response and
// returns what to append to the request.
//
//	tools, err := tnopenai.Tools(tk)
//	params := openai.ChatCompletionNewParams{Model: model, Tools: tools,
//		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Paris?")}}
//	for {
//		resp, err := client.Chat.Completions.New(ctx, params)
//		if err != nil {
//			return err
//		}
//		next, done, err := tnopenai.Run(ctx, tk, resp)
//		if err != nil {
//			return err
//		}
//		params.Messages = append(params.Messages, next...)
//		if done {
//			fmt.Println(resp.Choices[0].Message.Content)
//			break
//		}
//	}
//
// # Streaming
//
// For a streamed reply, [StreamTurn] sends the params through the client
// and reads the raw body with package adapters (text and calls to hooks
// as they arrive); answer its Turn with [RunTurn]:
//
//	turn, err := tnopenai.StreamTurn(ctx, client, params, adapters.StreamHooks{Text: printDelta})
//	...
//	next, done, err := tnopenai.RunTurn(ctx, tk, turn)
//
// The SDK's own form, client.Chat.Completions.NewStreaming with an
// openai.ChatCompletionAccumulator, also works with [Run] (pass
// &acc.ChatCompletion) over OpenAI's own streams, but the accumulator
// goes wrong without an error over what some servers and connections
// send: a compatible server that repeats a call's name in every piece
// gives the name joined with itself ("get_weatherget_weather", an unknown
// tool); a chunk with "finish_reason": null after the finish empties
// FinishReason; and a stream cut off before [DONE] gives the calls read so
// far, with no error. adapters.ParseOpenAIStream reads the first two as
// meant and refuses the last (adapters.ErrIncomplete).
//
// With the Responses API, client.Responses.NewStreaming is enough: the
// response.completed event holds the whole response, and [RunResponses]
// takes &event.Response.
//
// The arguments text of each call goes to [define.Tool.ExecuteJSON] as the
// model sent it; text that is not a JSON object is that call's error
// result, which the model sees and can correct. Results are rendered as
// [adapters.OpenAIResultsAndMedia] and [adapters.OpenAIResponsesResults] do
// (an error result's text starts with "error: "): a result's images, PDF
// files and audio go, for Chat, in a user message after the tool messages
// (the SDK's image_url, file and input_audio parts), and, for Responses,
// in the function_call_output's output list (input_image, input_file).
//
// # Results, transports and the Agent
//
// [Results] and [ResponsesResults] render a turn's results, as
// [toolnexus.Toolkit.Run] returns them, in the SDK's params, and hold out
// the calls that wait for approval ([toolnexus.PendingCalls]) until
// [toolnexus.Toolkit.Resume] gives their results. [NewTransport] and
// [NewResponsesTransport] are transport.Transports on the client (a
// request body sent as it is through client.Post, the reply read by
// adapters' parser), and [NewAgent] and [NewResponsesAgent] run a
// [toolnexus.Agent] over them:
//
//	agent, err := tnopenai.NewAgent(client, tk, "gpt-5-mini", toolnexus.WithMaxSteps(10))
//	...
//	run, err := agent.Run(ctx, "Weather in Paris?")
//	...
//	fmt.Println(run.Text)
package tnopenai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// ErrReply is wrapped by the error of [Run] and [RunResponses] when the
// response cannot be answered: nil, without choices, or with a tool call
// that is not a named function call with an id.
var ErrReply = errors.New("tnopenai: unusable model response")

// Tools renders the toolkit's tools for [openai.ChatCompletionNewParams]
// Tools. The options are those of [adapters.ToOpenAI] (e.g.
// [adapters.Strict]). Each param holds the rendered tool JSON through
// [param.Override], so the SDK sends it unchanged; its typed fields are
// unset.
func Tools(tk *toolnexus.Toolkit, opts ...adapters.Option) ([]openai.ChatCompletionToolUnionParam, error) {
	rendered, err := tk.ToOpenAI(opts...)
	if err != nil {
		return nil, err
	}
	out := make([]openai.ChatCompletionToolUnionParam, len(rendered))
	for i := range rendered {
		raw, err := entryJSON(rendered[i : i+1])
		if err != nil {
			return nil, err
		}
		fn := param.Override[openai.ChatCompletionFunctionToolParam](raw)
		out[i] = openai.ChatCompletionToolUnionParam{OfFunction: &fn}
	}
	return out, nil
}

// ResponsesTools renders the toolkit's tools for
// [responses.ResponseNewParams] Tools, as [Tools] does for Chat (options of
// [adapters.ToOpenAIResponses]; "strict" is always sent).
func ResponsesTools(tk *toolnexus.Toolkit, opts ...adapters.Option) ([]responses.ToolUnionParam, error) {
	rendered, err := tk.ToOpenAIResponses(opts...)
	if err != nil {
		return nil, err
	}
	out := make([]responses.ToolUnionParam, len(rendered))
	for i := range rendered {
		raw, err := entryJSON(rendered[i : i+1])
		if err != nil {
			return nil, err
		}
		fn := param.Override[responses.FunctionToolParam](raw)
		out[i] = responses.ToolUnionParam{OfFunction: &fn}
	}
	return out, nil
}

// entryJSON is the JSON of the one tool in a rendered tools slice, as
// [adapters.AppendJSON] writes it.
func entryJSON(one any) (json.RawMessage, error) {
	arr, err := adapters.AppendJSON(nil, one)
	if err != nil {
		return nil, fmt.Errorf("tnopenai: %w", err)
	}
	return json.RawMessage(arr[1 : len(arr)-1]), nil // strip [ and ]
}

// Run runs the tool calls of resp's first choice through
// [toolnexus.Toolkit.Run] (concurrently, results in call order) and returns
// the messages to append to the request's Messages: the assistant message
// (its content and its tool calls, arguments as the model sent them), then
// one tool message per call, then, when results carry images, PDF files
// or audio, the user message that carries them. done is true when the
// model called no tool:
// next then holds only the assistant message, and
// resp.Choices[0].Message.Content is the answer.
//
// A bad argument, an unknown tool or a tool's failure is not an error of
// Run: it is that call's tool message, so the model can correct itself.
// Run fails only on a response it cannot answer ([ErrReply]).
//
// With tools rendered strict (Tools(tk, adapters.Strict(true)) or
// StrictWherePossible), pass the same rendering as
// toolnexus.WithProvider(adapters.ForOpenAI(adapters.Strict(true))): the
// model sends null for an optional property it leaves out, and Run then
// reads that null as the property's absence (docs/mistakes.md).
//
// Run renders every result, a pending one (a tool that needs approval)
// as its "awaiting approval" error: with approval tools, run the calls
// with Toolkit.Run and render with [Results], which holds pending calls
// out, or use [NewAgent], which pauses the run.
func Run(ctx context.Context, tk *toolnexus.Toolkit, resp *openai.ChatCompletion, opts ...toolnexus.RunOption) (next []openai.ChatCompletionMessageParamUnion, done bool, err error) {
	if resp == nil {
		return nil, false, fmt.Errorf("%w: nil completion", ErrReply)
	}
	if len(resp.Choices) == 0 {
		return nil, false, fmt.Errorf("%w: no choices", ErrReply)
	}
	msg := resp.Choices[0].Message
	replay := openai.ChatCompletionAssistantMessageParam{}
	if msg.Content != "" {
		replay.Content.OfString = param.NewOpt(msg.Content)
	}
	if msg.Refusal != "" {
		replay.Refusal = param.NewOpt(msg.Refusal)
	}
	calls := make([]adapters.Call, 0, len(msg.ToolCalls))
	for i, tc := range msg.ToolCalls {
		at := fmt.Sprintf("choices[0].message.tool_calls[%d]", i)
		if tc.Type != "function" {
			return nil, false, fmt.Errorf("%w: %s: type %q, want function", ErrReply, at, tc.Type)
		}
		if err := checkCall(at, tc.ID, tc.Function.Name); err != nil {
			return nil, false, err
		}
		calls = append(calls, adapters.Call{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
		replay.ToolCalls = append(replay.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Function.Name, Arguments: tc.Function.Arguments},
			},
		})
	}
	next = []openai.ChatCompletionMessageParamUnion{{OfAssistant: &replay}}
	if len(calls) == 0 {
		return next, true, nil
	}
	return answer(ctx, tk, calls, next, opts)
}

// answer runs calls and appends to next their tool messages, then the
// user message that carries their media, if any.
func answer(ctx context.Context, tk *toolnexus.Toolkit, calls []adapters.Call, next []openai.ChatCompletionMessageParamUnion, opts []toolnexus.RunOption) ([]openai.ChatCompletionMessageParamUnion, bool, error) {
	msgs, err := chatResults(calls, tk.Run(ctx, calls, opts...), nil)
	if err != nil {
		return nil, false, err
	}
	return append(next, msgs...), false, nil
}

// RunTurn is [Run] for a Turn that package adapters read: the Turn of
// [adapters.ParseOpenAIStream] or of an [adapters.Stream] of
// [adapters.ForOpenAI] (a streamed reply read from its raw body), or of
// [adapters.ParseOpenAIReply]. Its Replay, the one
// [adapters.OpenAIAssistantMessage], goes back as the assistant message,
// byte for byte; then one tool message per call, and the user message of
// their media, as for Run. done is true when the
// model called no tool; turn.Text is then the answer.
//
// This is the streamed loop to prefer: the adapters' parser joins the
// pieces of a stream as they are meant to be, and refuses a stream that
// ended early, where the SDK's ChatCompletionAccumulator does not (see the
// package documentation).
func RunTurn(ctx context.Context, tk *toolnexus.Toolkit, turn adapters.Turn, opts ...toolnexus.RunOption) (next []openai.ChatCompletionMessageParamUnion, done bool, err error) {
	if len(turn.Replay) != 1 {
		return nil, false, fmt.Errorf("%w: a Turn with %d replay entries, want the one assistant message of an OpenAI Chat reply", ErrReply, len(turn.Replay))
	}
	msg, ok := turn.Replay[0].(adapters.OpenAIAssistantMessage)
	if !ok {
		return nil, false, fmt.Errorf("%w: a Turn whose replay is a %T, want an adapters.OpenAIAssistantMessage (a Turn of another provider?)", ErrReply, turn.Replay[0])
	}
	raw, err := json.Marshal(msg)
	if err != nil {
		return nil, false, fmt.Errorf("tnopenai: the assistant message: %w", err)
	}
	next = []openai.ChatCompletionMessageParamUnion{param.Override[openai.ChatCompletionMessageParamUnion](json.RawMessage(raw))}
	for i, c := range turn.Calls {
		if err := checkCall(fmt.Sprintf("calls[%d]", i), c.ID, c.Name); err != nil {
			return nil, false, err
		}
	}
	if len(turn.Calls) == 0 {
		return next, true, nil
	}
	return answer(ctx, tk, turn.Calls, next, opts)
}

// RunResponses is [Run] for the Responses API: it runs the function_call
// items of resp's output and returns the input items to append to the
// request's input list: every output item of resp replayed as the API sent
// it (reasoning items stay next to their function calls), then one
// function_call_output item per call. done is true when the model called
// no function; resp.OutputText() is then the answer.
//
// With PreviousResponseID, which makes the server keep the history, send
// only the function_call_output items: next[len(resp.Output):]. With
// strict tools, pass toolnexus.WithProvider(adapters.ForOpenAIResponses(
// adapters.Strict(true))) as for [Run].
func RunResponses(ctx context.Context, tk *toolnexus.Toolkit, resp *responses.Response, opts ...toolnexus.RunOption) (next []responses.ResponseInputItemUnionParam, done bool, err error) {
	if resp == nil {
		return nil, false, fmt.Errorf("%w: nil response", ErrReply)
	}
	next = make([]responses.ResponseInputItemUnionParam, 0, len(resp.Output))
	var calls []adapters.Call
	for i, it := range resp.Output {
		raw := it.RawJSON()
		if raw == "" {
			return nil, false, fmt.Errorf("%w: output[%d]: no JSON to replay", ErrReply, i)
		}
		next = append(next, param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(raw)))
		if it.Type != "function_call" {
			continue
		}
		if err := checkCall(fmt.Sprintf("output[%d]", i), it.CallID, it.Name); err != nil {
			return nil, false, err
		}
		args := it.Arguments.OfString
		if raw := it.JSON.Arguments.Raw(); args == "" && strings.HasPrefix(raw, "{") {
			args = raw // an object in place of the text (some compatible servers)
		}
		calls = append(calls, adapters.Call{ID: it.CallID, Name: it.Name, Args: json.RawMessage(args)})
	}
	if len(calls) == 0 {
		return next, true, nil
	}
	items, err := responsesResults(calls, tk.Run(ctx, calls, opts...), nil)
	if err != nil {
		return nil, false, err
	}
	next = append(next, items...)
	return next, false, nil
}

// outputItem is the SDK's form of an item of a function_call_output's
// output list (a result's parts): input_text, input_image or input_file.
func outputItem(c adapters.OpenAIResponsesContent) responses.ResponseFunctionCallOutputItemUnionParam {
	switch c.Type {
	case "input_image":
		return responses.ResponseFunctionCallOutputItemUnionParam{OfInputImage: &responses.ResponseInputImageContentParam{
			ImageURL: param.NewOpt(c.ImageURL.Text()), Detail: responses.ResponseInputImageContentDetail(c.Detail)}}
	case "input_file":
		f := &responses.ResponseInputFileContentParam{}
		if c.FileData != nil {
			f.FileData = param.NewOpt(c.FileData.Text())
		}
		if c.FileURL != "" {
			f.FileURL = param.NewOpt(c.FileURL)
		}
		if c.Filename != "" {
			f.Filename = param.NewOpt(c.Filename)
		}
		return responses.ResponseFunctionCallOutputItemUnionParam{OfInputFile: f}
	}
	return responses.ResponseFunctionCallOutputItemUnionParam{OfInputText: &responses.ResponseInputTextContentParam{Text: c.Text}}
}

// checkCall checks what results are paired by: an id and a name.
func checkCall(at, id, name string) error {
	if id == "" {
		return fmt.Errorf("%w: %s: missing id (results are paired by it)", ErrReply, at)
	}
	if name == "" {
		return fmt.Errorf("%w: %s: missing name", ErrReply, at)
	}
	return nil
}
