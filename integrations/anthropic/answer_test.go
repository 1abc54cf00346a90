package tnanthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

var forecast = define.MustDefineAnswer[sdktest.Forecast](define.WithDescription("The forecast the user asked for"))

// message is an Anthropic message with content and stop reason stop.
func message(stop, content string) string {
	return `{"id":"msg_a","type":"message","role":"assistant","model":"claude-test","stop_reason":"` + stop +
		`","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":10},"content":[` + content + `]}`
}

func textBlock(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

// TestAnswerOutputFormat: the official client, unmodified, asks for the
// typed answer after the tool calls of the conversation (tools and the
// output format in one request); the last message decodes into a
// Forecast, thinking before it aside.
func TestAnswerOutputFormat(t *testing.T) {
	final := message("end_turn", `{"type":"thinking","thinking":"Enough.","signature":"c2ln"},`+textBlock(sdktest.ForecastText))
	replies := append(append([]string(nil), script[:2]...), final)
	m := sdktest.NewModel(modelPath, replies...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnanthropic.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	format, err := tnanthropic.OutputFormat(forecast)
	if err != nil {
		t.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Tools: tools,
		OutputConfig: anthropic.OutputConfigParam{Format: format},
		Messages:     []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Forecast for Oslo?"))}}
	var got sdktest.Forecast
	for turn := 1; ; turn++ {
		if turn > len(replies) {
			t.Fatal("the loop did not end")
		}
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		got, err = tnanthropic.DecodeAnswer(forecast, msg)
		if errors.Is(err, adapters.ErrToolCalls) {
			next, _, err := tnanthropic.Run(ctx, tk, msg)
			if err != nil {
				t.Fatal(err)
			}
			params.Messages = append(params.Messages, next...)
			continue
		}
		if err != nil {
			t.Fatalf("turn %d: DecodeAnswer: %v", turn, err)
		}
		break
	}
	if got != sdktest.ForecastValue {
		t.Errorf("answer = %+v, want %+v", got, sdktest.ForecastValue)
	}
	reqs := m.Requests()
	req, err := adapters.ResponseFormat(adapters.ForAnthropic(), forecast)
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range reqs {
		sent, err := sdktest.Member(body, "output_config")
		if err != nil {
			t.Fatal(err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, sent); err != nil || c.String() != string(req.Value) {
			t.Errorf("request %d: output_config %s, want the rendered %s (%v)", i+1, c.String(), req.Value, err)
		}
	}
	golden.JSON(t, "testdata/answer_requests.json", reqs)
}

// TestAnswerForcedTool: the older models' pattern, a forced call of the
// answer's tool; a bad input is sent back as the tool_result error the
// re-ask renders, and the corrected call decodes.
func TestAnswerForcedTool(t *testing.T) {
	bad := message("tool_use", `{"type":"tool_use","id":"toolu_a1","name":"forecast","input":{"city":"Oslo","temp_c":99,"sky":"fog"}}`)
	good := message("tool_use", `{"type":"tool_use","id":"toolu_a2","name":"forecast","input":`+sdktest.ForecastText+`}`)
	m := sdktest.NewModel(modelPath, bad, good)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tool, choice, err := tnanthropic.AnswerTool(forecast)
	if err != nil {
		t.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-3-5-haiku", MaxTokens: 1024,
		Tools: []anthropic.ToolUnionParam{tool}, ToolChoice: choice,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Forecast for Oslo?"))}}
	byTool := adapters.AnswerTool()
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	_, derr := tnanthropic.DecodeAnswer(forecast, msg, byTool)
	if !errors.Is(derr, define.ErrConstraint) {
		t.Fatalf("DecodeAnswer(bad) = %v", derr)
	}
	// The re-ask: the tool_result with is_error, rendered by the adapters.
	turn := adapters.Turn{Calls: []adapters.Call{{ID: msg.Content[0].ID, Name: msg.Content[0].Name, Args: msg.Content[0].Input}}}
	retry, err := adapters.RetryAnswer(adapters.ForAnthropic(byTool), forecast, turn, derr)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(retry[0])
	if err != nil {
		t.Fatal(err)
	}
	var user anthropic.MessageParam
	if err := json.Unmarshal(raw, &user); err != nil {
		t.Fatal(err)
	}
	params.Messages = append(params.Messages, msg.ToParam(), user)
	msg, err = client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tnanthropic.DecodeAnswer(forecast, msg, byTool)
	if err != nil || got != sdktest.ForecastValue {
		t.Errorf("DecodeAnswer(good) = %+v, %v", got, err)
	}
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !bytes.Contains(reqs[1], []byte(`"is_error":true`)) || !bytes.Contains(reqs[1], []byte(`/temp_c: expected integer \u003c= 60, got 99`)) {
		t.Errorf("the re-ask request lacks the error result:\n%s", reqs[1])
	}
	golden.JSON(t, "testdata/answer_tool_requests.json", reqs)
}

func TestAnswerOutcomes(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		is          error
		words       string
	}{
		{"refusal", message("refusal", textBlock("I can't help with that.")), adapters.ErrRefused, "I can't help with that."},
		{"max_tokens", message("max_tokens", textBlock(`{"city":"Os`)), adapters.ErrIncomplete, `{"city":"Os`},
		{"tool_use", script[0], adapters.ErrToolCalls, ""},
		{"empty", message("end_turn", ""), adapters.ErrNoAnswer, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var msg anthropic.Message
			if err := json.Unmarshal([]byte(c.reply), &msg); err != nil {
				t.Fatal(err)
			}
			_, err := tnanthropic.DecodeAnswer(forecast, &msg)
			var ae *adapters.AnswerError
			if !errors.Is(err, c.is) || !errors.As(err, &ae) || ae.Words != c.words {
				t.Errorf("DecodeAnswer = %v, want %v with words %q", err, c.is, c.words)
			}
		})
	}
	if _, err := tnanthropic.DecodeAnswer(forecast, nil); !errors.Is(err, tnanthropic.ErrReply) {
		t.Errorf("DecodeAnswer(nil) = %v", err)
	}
	if _, err := tnanthropic.OutputFormat(forecast, adapters.AnswerTool()); err == nil {
		t.Error("OutputFormat with AnswerTool: no error")
	}
	if _, _, err := tnanthropic.AnswerTool(define.Answer[sdktest.Forecast]{}); !errors.Is(err, define.ErrZeroAnswer) {
		t.Errorf("AnswerTool(zero) = %v", err)
	}
	if _, err := tnanthropic.OutputFormat(define.Answer[sdktest.Forecast]{}); !strings.Contains(fmt.Sprint(err), "zero Answer") {
		t.Errorf("OutputFormat(zero) = %v", err)
	}
}

// The typed answer with the Anthropic SDK: the output format in the
// params, the message decoded into a Go value.
func ExampleDecodeAnswer() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, message("end_turn", textBlock(sdktest.ForecastText)))
	defer m.Close()
	client := newClient(m)

	forecast := define.MustDefineAnswer[sdktest.Forecast]()
	format, err := tnanthropic.OutputFormat(forecast)
	if err != nil {
		fmt.Println(err)
		return
	}
	msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024,
		OutputConfig: anthropic.OutputConfigParam{Format: format},
		Messages:     []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Forecast for Oslo?"))}})
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := tnanthropic.DecodeAnswer(forecast, msg)
	fmt.Printf("%+v %v\n", f, err)
	// Output:
	// {City:Oslo TempC:12 Sky:overcast Note:} <nil>
}
