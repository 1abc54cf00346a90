package tngenai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"google.golang.org/genai"
)

// Typed answers (define.DefineAnswer) through google.golang.org/genai:
// the response schema of a request's config ([SetResponseFormat]) and the
// answer decoded from the SDK's response ([DecodeAnswer]).
//
//	trip := define.MustDefineAnswer[Trip]()
//	config := &genai.GenerateContentConfig{}
//	if err := tngenai.SetResponseFormat(config, trip); err != nil { ... }
//	resp, err := client.Models.GenerateContent(ctx, model, history, config)
//	t, err := tngenai.DecodeAnswer(trip, resp)

// SetResponseFormat sets config's ResponseMIMEType to "application/json"
// and its ResponseSchema or ResponseJsonSchema to the typed answer a's
// schema, as [adapters.ResponseFormat] renders it for [adapters.ForGemini]
// with opts: the OpenAPI subset where it carries the schema, decoded into
// a [genai.Schema] (a keyword it has no field for is an error, never
// dropped), else JSON Schema as the rendered bytes
// ([adapters.GeminiJSONSchema] and [adapters.GeminiParameters] force one).
// The other fields of config are left as they are.
func SetResponseFormat(config *genai.GenerateContentConfig, a define.AnyAnswer, opts ...adapters.Option) error {
	if config == nil {
		return fmt.Errorf("tngenai: SetResponseFormat: nil config")
	}
	req, err := adapters.ResponseFormat(adapters.ForGemini(opts...), a)
	if err != nil {
		return fmt.Errorf("tngenai: %w", err)
	}
	if !req.Tool.IsZero() {
		return fmt.Errorf("tngenai: SetResponseFormat with AnswerTool: the answer is a forced tool call, not a response schema (send the answer's tool with Tools)")
	}
	var gc struct {
		MIME       string          `json:"responseMimeType"`
		Schema     json.RawMessage `json:"responseSchema"`
		JSONSchema json.RawMessage `json:"responseJsonSchema"`
	}
	if err := json.Unmarshal(req.Value, &gc); err != nil {
		return fmt.Errorf("tngenai: %w", err)
	}
	var schema *genai.Schema
	if gc.Schema != nil {
		if schema, err = decodeSchema(gc.Schema); err != nil {
			return fmt.Errorf("tngenai: answer %s: responseSchema: %w", a.Format().Name(), err)
		}
	}
	config.ResponseMIMEType = gc.MIME
	config.ResponseSchema, config.ResponseJsonSchema = schema, nil
	if gc.JSONSchema != nil {
		config.ResponseJsonSchema = gc.JSONSchema
	}
	return nil
}

// DecodeAnswer reads the typed answer a from resp's first candidate, as
// [adapters.DecodeAnswer] reads a parsed reply for [adapters.ForGemini]
// with opts: the text of its parts (thoughts excluded) decoded into a T,
// with every constraint checked (a *define.ArgErrors naming each
// problem). finishReason "MAX_TOKENS" is [adapters.ErrIncomplete];
// "SAFETY" and the other blocks are [adapters.ErrRefused]; function calls
// are [adapters.ErrToolCalls] (run them with [Run] first). A response
// without candidates (a blocked prompt) is an error wrapping [ErrReply].
func DecodeAnswer[T any](a define.Answer[T], resp *genai.GenerateContentResponse, opts ...adapters.Option) (T, error) {
	var zero T
	if resp == nil {
		return zero, fmt.Errorf("%w: nil response", ErrReply)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			return zero, fmt.Errorf("%w: no candidates: prompt blocked (%s)", ErrReply, pf.BlockReason)
		}
		return zero, fmt.Errorf("%w: no candidates", ErrReply)
	}
	c := resp.Candidates[0]
	turn := adapters.Turn{Stop: string(c.FinishReason)}
	var text strings.Builder
	if c.Content != nil {
		for _, p := range c.Content.Parts {
			switch {
			case p == nil || p.Thought:
			case p.FunctionCall != nil:
				args := []byte("{}")
				if p.FunctionCall.Args != nil {
					var err error
					if args, err = json.Marshal(p.FunctionCall.Args); err != nil {
						return zero, fmt.Errorf("tngenai: functionCall %s: args: %w", p.FunctionCall.Name, err)
					}
				}
				turn.Calls = append(turn.Calls, adapters.Call{ID: p.FunctionCall.ID, Name: p.FunctionCall.Name, Args: args})
			default:
				text.WriteString(p.Text)
			}
		}
	}
	turn.Text = text.String()
	return adapters.DecodeAnswer(adapters.ForGemini(opts...), a, turn)
}
