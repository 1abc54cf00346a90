// Package tnanthropic connects a toolnexus [toolnexus.Toolkit] to
// Anthropic's Go SDK, github.com/anthropics/anthropic-sdk-go/v2: the
// toolkit's tools as SDK params holding the rendered JSON byte for byte
// (properties in Go field order), and one call per model turn that runs the
// tool_use blocks of an [anthropic.Message] and returns the messages to
// append to the request.
//
//	tools, err := tnanthropic.Tools(tk)
//	params := anthropic.MessageNewParams{Model: model, MaxTokens: 1024, Tools: tools,
//		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Paris?"))}}
//	for {
//		msg, err := client.Messages.New(ctx, params)
//		if err != nil {
//			return err
//		}
//		next, done, err := tnanthropic.Run(ctx, tk, msg)
//		if err != nil {
//			return err
//		}
//		params.Messages = append(params.Messages, next...)
//		if done {
//			for _, block := range msg.Content { // thinking may come first
//				if block.Type == "text" {
//					fmt.Println(block.Text)
//				}
//			}
//			break
//		}
//	}
//
// # Streaming
//
// The SDK's streamed form needs no glue: accumulate the events of
// client.Messages.NewStreaming into an anthropic.Message and pass it to
// [Run]:
//
//	stream := client.Messages.NewStreaming(ctx, params)
//	msg := anthropic.Message{}
//	for stream.Next() {
//		if err := msg.Accumulate(stream.Current()); err != nil {
//			return err
//		}
//	}
//	if err := stream.Err(); err != nil {
//		return err
//	}
//	next, done, err := tnanthropic.Run(ctx, tk, &msg)
//
// One thing Accumulate loses: a tool_use whose input_json_delta pieces do
// not join into valid JSON (max_tokens cut the input short) gets the input
// {} at its content_block_stop, with no error, so the tool would run with
// no arguments. Run therefore refuses ([ErrReply]) a message whose last
// block is a tool_use and whose stop_reason is max_tokens or
// model_context_window_exceeded, whatever its input: send the request again
// with a larger max_tokens. To keep the cut input, and to refuse a stream
// that ended before message_stop, read the raw body with package adapters
// instead (adapters.ParseAnthropicStream, or adapters.NewStream of
// adapters.ForAnthropic) and answer its Turn with [RunTurn].
//
// The model's message is replayed through the SDK's own Message.ToParam,
// so thinking blocks and their signatures go back unchanged. Each
// tool_use input, which the SDK keeps as raw JSON, goes to
// [define.Tool.ExecuteJSON] as the model sent it. Results are rendered as
// [adapters.AnthropicResults] does: one tool_result block per call, in call
// order, is_error set on error results, a result's parts (define's
// images, PDF and text documents) as the SDK's image and document blocks
// of the tool_result's content.
//
// # Results, transports and the Agent
//
// [Results] renders a turn's results, as [toolnexus.Toolkit.Run] returns
// them, as the SDK's user message of tool_result blocks, and holds out the
// calls that wait for approval ([toolnexus.PendingCalls]) until
// [toolnexus.Toolkit.Resume] gives their results. [NewTransport] is a
// transport.Transport on the client (a request body sent as it is through
// client.Post, the reply read by adapters' parser), and [NewAgent] runs a
// [toolnexus.Agent] over it:
//
//	agent, err := tnanthropic.NewAgent(client, tk, "claude-sonnet-4-5",
//		toolnexus.WithRequest(adapters.Request{MaxTokens: 1024}))
//	...
//	run, err := agent.Run(ctx, "Weather in Paris?")
//	...
//	fmt.Println(run.Text)
package tnanthropic

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// ErrReply is wrapped by the error of [Run] when the message cannot be
// answered: nil, with a tool_use block without an id or a name, or with a
// last tool_use block that was cut off (stop_reason max_tokens or
// model_context_window_exceeded).
var ErrReply = errors.New("tnanthropic: unusable model message")

// Tools renders the toolkit's tools for [anthropic.MessageNewParams] Tools.
// The options are those of [adapters.ToAnthropic] (e.g. [adapters.Strict]).
// Each param holds the rendered tool JSON through [param.Override], so the
// SDK sends it unchanged; its typed fields are unset.
func Tools(tk *toolnexus.Toolkit, opts ...adapters.Option) ([]anthropic.ToolUnionParam, error) {
	rendered, err := tk.ToAnthropic(opts...)
	if err != nil {
		return nil, err
	}
	out := make([]anthropic.ToolUnionParam, len(rendered))
	for i := range rendered {
		arr, err := adapters.AppendJSON(nil, rendered[i:i+1])
		if err != nil {
			return nil, fmt.Errorf("tnanthropic: %w", err)
		}
		tool := param.Override[anthropic.ToolParam](json.RawMessage(arr[1 : len(arr)-1])) // strip [ and ]
		out[i] = anthropic.ToolUnionParam{OfTool: &tool}
	}
	return out, nil
}

// Run runs the tool_use blocks of msg through [toolnexus.Toolkit.Run]
// (concurrently, results in call order) and returns the messages to append
// to the request's Messages: msg itself as an assistant message
// (msg.ToParam(), thinking blocks intact), then, when it used tools, the
// user message of tool_result blocks. done is true when the model used no
// tool and did not pause: next then holds only the assistant message, and
// msg's text blocks are the answer.
//
// A message with stop_reason "pause_turn" (the API paused a long turn of
// server-side tools, such as web search) is not done even without a
// tool_use block: next holds the assistant message alone, and sending it
// back as it is lets the model continue the turn.
//
// A bad argument, an unknown tool or a tool's failure is not an error of
// Run: it is that call's tool_result with is_error set, so the model can
// correct itself. Run fails only on a message it cannot answer
// ([ErrReply]).
//
// Run renders every result, a pending one (a tool that needs approval)
// as its "awaiting approval" error: with approval tools, run the calls
// with Toolkit.Run and render with [Results], which holds pending calls
// out, or use [NewAgent], which pauses the run.
func Run(ctx context.Context, tk *toolnexus.Toolkit, msg *anthropic.Message, opts ...toolnexus.RunOption) (next []anthropic.MessageParam, done bool, err error) {
	if msg == nil {
		return nil, false, fmt.Errorf("%w: nil message", ErrReply)
	}
	var calls []adapters.Call
	for i, b := range msg.Content {
		if b.Type != "tool_use" {
			continue
		}
		if b.ID == "" {
			return nil, false, fmt.Errorf("%w: content[%d]: tool_use without an id (results are paired by it)", ErrReply, i)
		}
		if b.Name == "" {
			return nil, false, fmt.Errorf("%w: content[%d]: tool_use without a name", ErrReply, i)
		}
		calls = append(calls, adapters.Call{ID: b.ID, Name: b.Name, Args: b.Input})
	}
	if n := len(msg.Content); n > 0 && msg.Content[n-1].Type == "tool_use" &&
		(msg.StopReason == anthropic.StopReasonMaxTokens || msg.StopReason == anthropic.StopReasonModelContextWindowExceeded) {
		// The model ran out of tokens inside its last tool_use: its input
		// is cut (the SDK's Message.Accumulate even replaces input that is
		// not valid JSON with {}), and running the tool on it would act on
		// arguments the model did not finish.
		return nil, false, fmt.Errorf("%w: content[%d]: tool_use %s was cut off by stop_reason %s; send the request again with a larger max_tokens",
			ErrReply, n-1, msg.Content[n-1].Name, msg.StopReason)
	}
	next = []anthropic.MessageParam{msg.ToParam()}
	if len(calls) == 0 {
		return next, msg.StopReason != anthropic.StopReasonPauseTurn, nil
	}
	user, err := resultMessage(ctx, tk, calls, opts)
	if err != nil {
		return nil, false, err
	}
	return append(next, user), false, nil
}

// resultMessage runs calls and renders their results as the user message
// of tool_result blocks.
func resultMessage(ctx context.Context, tk *toolnexus.Toolkit, calls []adapters.Call, opts []toolnexus.RunOption) (anthropic.MessageParam, error) {
	return toolResults(calls, tk.Run(ctx, calls, opts...), nil)
}

// toolResults renders results as the user message of tool_result blocks
// of calls: the one conversion of Run, RunTurn and Results.
func toolResults(calls []adapters.Call, results []define.Result, opts []adapters.Option) (anthropic.MessageParam, error) {
	rendered, err := adapters.AnthropicResults(calls, results, opts...)
	if err != nil {
		return anthropic.MessageParam{}, fmt.Errorf("tnanthropic: %w", err)
	}
	blocks := make([]anthropic.ContentBlockParamUnion, len(rendered.Content))
	for i, r := range rendered.Content {
		block := anthropic.ToolResultBlockParam{ToolUseID: r.ToolUseID, IsError: param.NewOpt(r.IsError)}
		switch c := r.Content.(type) {
		case []adapters.AnthropicContentBlock:
			block.Content = make([]anthropic.ToolResultBlockParamContentUnion, len(c))
			for j, b := range c {
				block.Content[j] = contentBlock(b)
			}
		case string: // nil when empty: the API rejects an empty text block
			block.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: c}}}
		}
		blocks[i] = anthropic.ContentBlockParamUnion{OfToolResult: &block}
	}
	return anthropic.NewUserMessage(blocks...), nil
}

// contentBlock is the SDK's form of a block of a tool_result's content
// (a result's parts): text, an image (base64 or URL), or a document (a
// PDF, base64 or URL, or a text file's text as a content source) with
// its title.
func contentBlock(b adapters.AnthropicContentBlock) anthropic.ToolResultBlockParamContentUnion {
	src := b.Source
	switch {
	case b.Type == "image" && src.Type == "url":
		return anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
			Source: anthropic.ImageBlockParamSourceUnion{OfURL: &anthropic.URLImageSourceParam{URL: src.URL}}}}
	case b.Type == "image":
		return anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
			Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
				Data: base64.StdEncoding.EncodeToString(src.Data), MediaType: anthropic.Base64ImageSourceMediaType(src.MediaType)}}}}
	case b.Type == "document":
		doc := &anthropic.DocumentBlockParam{}
		if b.Title != "" {
			doc.Title = param.NewOpt(b.Title)
		}
		switch src.Type {
		case "url":
			doc.Source.OfURL = &anthropic.URLPDFSourceParam{URL: src.URL}
		case "content":
			texts := make([]anthropic.ContentBlockSourceContentItemUnionParam, len(src.Content))
			for k, c := range src.Content {
				texts[k] = anthropic.ContentBlockSourceContentItemUnionParam{OfText: &anthropic.TextBlockParam{Text: c.Text}}
			}
			doc.Source.OfContent = &anthropic.ContentBlockSourceParam{Content: anthropic.ContentBlockSourceContentUnionParam{OfContentBlockSourceContent: texts}}
		default:
			doc.Source.OfBase64 = &anthropic.Base64PDFSourceParam{Data: base64.StdEncoding.EncodeToString(src.Data)}
		}
		return anthropic.ToolResultBlockParamContentUnion{OfDocument: doc}
	}
	return anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: b.Text}}
}

// RunTurn is [Run] for a Turn that package adapters read: the Turn of
// [adapters.ParseAnthropicStream] or of an [adapters.Stream] of
// [adapters.ForAnthropic] (a streamed reply read from its raw body), or of
// [adapters.ParseAnthropicReply]. Its Replay, the one
// [adapters.AnthropicMessage], goes back as the assistant message byte for
// byte (thinking blocks and signatures intact); then the user message of
// tool_result blocks. done is true when the model called no tool (or
// paused: stop_reason pause_turn is not done); turn.Text is then the answer.
//
// This is the streamed loop to prefer: the adapters' parser refuses a
// tool_use whose input was cut off or is not valid JSON, where the SDK's
// Message.Accumulate replaces such input with {} (see the package
// documentation).
func RunTurn(ctx context.Context, tk *toolnexus.Toolkit, turn adapters.Turn, opts ...toolnexus.RunOption) (next []anthropic.MessageParam, done bool, err error) {
	if len(turn.Replay) != 1 {
		return nil, false, fmt.Errorf("%w: a Turn with %d replay entries, want the one assistant message of an Anthropic reply", ErrReply, len(turn.Replay))
	}
	msg, ok := turn.Replay[0].(adapters.AnthropicMessage)
	if !ok {
		return nil, false, fmt.Errorf("%w: a Turn whose replay is a %T, want an adapters.AnthropicMessage (a Turn of another provider?)", ErrReply, turn.Replay[0])
	}
	raw, err := json.Marshal(msg)
	if err != nil {
		return nil, false, fmt.Errorf("tnanthropic: the assistant message: %w", err)
	}
	next = []anthropic.MessageParam{param.Override[anthropic.MessageParam](json.RawMessage(raw))}
	if len(turn.Calls) == 0 {
		return next, turn.Stop != string(anthropic.StopReasonPauseTurn), nil
	}
	user, err := resultMessage(ctx, tk, turn.Calls, opts)
	if err != nil {
		return nil, false, err
	}
	return append(next, user), false, nil
}
