package tnanthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Typed answers (define.DefineAnswer) through anthropic-sdk-go: the
// structured output format of a request's params ([OutputFormat]), or,
// for the models without one, the answer as a forced tool call
// ([AnswerTool]); and the answer decoded from the SDK's message
// ([DecodeAnswer]).
//
//	trip := define.MustDefineAnswer[Trip]()
//	format, err := tnanthropic.OutputFormat(trip)
//	params.OutputConfig.Format = format
//	msg, err := client.Messages.New(ctx, params)
//	t, err := tnanthropic.DecodeAnswer(trip, msg)

// OutputFormat renders the typed answer a for
// [anthropic.MessageNewParams] OutputConfig.Format: the
// {"type":"json_schema","schema":...} of [adapters.ResponseFormat] for
// [adapters.ForAnthropic] with opts, the schema in Anthropic's strict
// subset (recursive types inlined to [adapters.MaxInlineDepth]), held
// byte for byte by [param.Override].
func OutputFormat(a define.AnyAnswer, opts ...adapters.Option) (anthropic.JSONOutputFormatParam, error) {
	req, err := adapters.ResponseFormat(adapters.ForAnthropic(opts...), a)
	if err != nil {
		return anthropic.JSONOutputFormatParam{}, fmt.Errorf("tnanthropic: %w", err)
	}
	if !req.Tool.IsZero() {
		return anthropic.JSONOutputFormatParam{}, fmt.Errorf("tnanthropic: OutputFormat with AnswerTool: the answer is a forced tool call (use AnswerTool)")
	}
	var cfg struct {
		Format json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(req.Value, &cfg); err != nil {
		return anthropic.JSONOutputFormatParam{}, fmt.Errorf("tnanthropic: %w", err)
	}
	return param.Override[anthropic.JSONOutputFormatParam](cfg.Format), nil
}

// AnswerTool renders the typed answer a as a tool for the request's Tools
// and the tool choice that forces a tool call ({"type":"any"}), for the
// models without structured outputs (Claude before Sonnet 4.5, Haiku 4.5
// and Opus 4.1): the model's answer is then the input of its call of the
// answer's tool, which [DecodeAnswer] with [adapters.AnswerTool] reads.
// The tool is rendered as [adapters.ToAnthropic] renders it with opts (so
// [adapters.Strict] makes it strict). Extended thinking does not allow a
// forced tool choice.
func AnswerTool(a define.AnyAnswer, opts ...adapters.Option) (anthropic.ToolUnionParam, anthropic.ToolChoiceUnionParam, error) {
	if a == nil || a.Format().IsZero() {
		return anthropic.ToolUnionParam{}, anthropic.ToolChoiceUnionParam{}, fmt.Errorf("tnanthropic: AnswerTool: %w", define.ErrZeroAnswer)
	}
	rendered, err := adapters.ToAnthropic([]define.Tool{a.Format().Tool()}, opts...)
	if err != nil {
		return anthropic.ToolUnionParam{}, anthropic.ToolChoiceUnionParam{}, err
	}
	arr, err := adapters.AppendJSON(nil, rendered)
	if err != nil {
		return anthropic.ToolUnionParam{}, anthropic.ToolChoiceUnionParam{}, fmt.Errorf("tnanthropic: %w", err)
	}
	tool := param.Override[anthropic.ToolParam](json.RawMessage(arr[1 : len(arr)-1])) // strip [ and ]
	return anthropic.ToolUnionParam{OfTool: &tool}, anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}, nil
}

// DecodeAnswer reads the typed answer a from msg, as
// [adapters.DecodeAnswer] reads a parsed reply for [adapters.ForAnthropic]
// with opts: the text blocks (thinking excluded) decoded into a T, with
// every constraint checked (a *define.ArgErrors naming each problem), or,
// with [adapters.AnswerTool] among opts, the input of the call of the
// answer's tool. stop_reason "refusal" is [adapters.ErrRefused] with the
// model's words, "max_tokens" [adapters.ErrIncomplete], tool_use blocks
// (other than the answer's) [adapters.ErrToolCalls] (run them with
// [Run] first), no text [adapters.ErrNoAnswer].
func DecodeAnswer[T any](a define.Answer[T], msg *anthropic.Message, opts ...adapters.Option) (T, error) {
	var zero T
	if msg == nil {
		return zero, fmt.Errorf("%w: nil message", ErrReply)
	}
	turn := adapters.Turn{Stop: string(msg.StopReason)}
	var text strings.Builder
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			turn.Calls = append(turn.Calls, adapters.Call{ID: b.ID, Name: b.Name, Args: b.Input})
		}
	}
	turn.Text = text.String()
	return adapters.DecodeAnswer(adapters.ForAnthropic(opts...), a, turn)
}
