package tnopenai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Typed answers (define.DefineAnswer) through openai-go: the response
// format of a request's params, and the answer decoded from the SDK's
// response, for Chat Completions ([ResponseFormat], [DecodeAnswer]) and
// Responses ([ResponsesFormat], [DecodeResponsesAnswer]).
//
//	invoice := define.MustDefineAnswer[Invoice]()
//	format, err := tnopenai.ResponseFormat(invoice)
//	params.ResponseFormat = format
//	resp, err := client.Chat.Completions.New(ctx, params)
//	inv, err := tnopenai.DecodeAnswer(invoice, resp)

// ResponseFormat renders the typed answer a for
// [openai.ChatCompletionNewParams] ResponseFormat: the
// {"type":"json_schema","json_schema":{...}} of
// [adapters.ResponseFormat] for [adapters.ForOpenAI] with opts (a
// [adapters.Server] profile, [adapters.Strict]), held byte for byte by
// [param.Override]. The answer as a forced tool call ([adapters.AnswerTool],
// or a profile without a JSON Schema format) is not a response format:
// that is an error here (send the answer's tool with [adapters.ToOpenAI]
// instead).
func ResponseFormat(a define.AnyAnswer, opts ...adapters.Option) (openai.ChatCompletionNewParamsResponseFormatUnion, error) {
	raw, err := formatJSON(adapters.ForOpenAI(opts...), a)
	if err != nil {
		return openai.ChatCompletionNewParamsResponseFormatUnion{}, err
	}
	f := param.Override[shared.ResponseFormatJSONSchemaParam](raw)
	return openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &f}, nil
}

// ResponsesFormat renders the typed answer a for
// [responses.ResponseNewParams] Text: {"format":{"type":"json_schema",...}}
// as [adapters.ResponseFormat] renders it for [adapters.ForOpenAIResponses]
// with opts.
func ResponsesFormat(a define.AnyAnswer, opts ...adapters.Option) (responses.ResponseTextConfigParam, error) {
	raw, err := formatJSON(adapters.ForOpenAIResponses(opts...), a)
	if err != nil {
		return responses.ResponseTextConfigParam{}, err
	}
	return param.Override[responses.ResponseTextConfigParam](raw), nil
}

// formatJSON is the response format of a for p, refusing a forced tool.
func formatJSON(p adapters.Provider, a define.AnyAnswer) (json.RawMessage, error) {
	req, err := adapters.ResponseFormat(p, a)
	if err != nil {
		return nil, fmt.Errorf("tnopenai: %w", err)
	}
	if !req.Tool.IsZero() {
		return nil, fmt.Errorf("tnopenai: %s asks for the answer as a forced tool call, not a response format: send the answer's tool (define.AnswerFormat.Tool) with the request's tools", p.Name())
	}
	return req.Value, nil
}

// DecodeAnswer reads the typed answer a from resp's first choice, as
// [adapters.DecodeAnswer] reads a parsed reply for [adapters.ForOpenAI]
// with opts (the options ResponseFormat was given): the message's content
// decoded into a T, with every constraint checked (a
// *define.ArgErrors naming each problem); a refusal is
// [adapters.ErrRefused] with the model's words, a finish_reason "length"
// [adapters.ErrIncomplete], tool calls [adapters.ErrToolCalls] (run them
// with [Run] first), no content [adapters.ErrNoAnswer].
func DecodeAnswer[T any](a define.Answer[T], resp *openai.ChatCompletion, opts ...adapters.Option) (T, error) {
	var zero T
	if resp == nil || len(resp.Choices) == 0 {
		return zero, fmt.Errorf("%w: no choices", ErrReply)
	}
	ch := resp.Choices[0]
	turn := adapters.Turn{Text: ch.Message.Content, Refusal: ch.Message.Refusal, Stop: ch.FinishReason}
	for _, tc := range ch.Message.ToolCalls {
		turn.Calls = append(turn.Calls, adapters.Call{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
	}
	return adapters.DecodeAnswer(adapters.ForOpenAI(opts...), a, turn)
}

// DecodeResponsesAnswer is [DecodeAnswer] for a Responses API response:
// the output_text of its message items (resp.OutputText()), or their
// refusal parts ([adapters.ErrRefused]); status "incomplete" is
// [adapters.ErrIncomplete], function calls [adapters.ErrToolCalls].
func DecodeResponsesAnswer[T any](a define.Answer[T], resp *responses.Response, opts ...adapters.Option) (T, error) {
	var zero T
	if resp == nil {
		return zero, fmt.Errorf("%w: nil response", ErrReply)
	}
	turn := adapters.Turn{Stop: string(resp.Status)}
	var text, refusal strings.Builder
	for _, it := range resp.Output {
		switch it.Type {
		case "message":
			for _, c := range it.Content {
				switch c.Type {
				case "output_text":
					text.WriteString(c.Text)
				case "refusal":
					refusal.WriteString(c.Refusal)
				}
			}
		case "function_call":
			turn.Calls = append(turn.Calls, adapters.Call{ID: it.CallID, Name: it.Name, Args: json.RawMessage(it.Arguments.OfString)})
		}
	}
	turn.Text, turn.Refusal = text.String(), refusal.String()
	return adapters.DecodeAnswer(adapters.ForOpenAIResponses(opts...), a, turn)
}
