// Package tngenai connects a toolnexus [toolnexus.Toolkit] to Google's Go
// SDK, google.golang.org/genai: the toolkit's tools as []*genai.Tool, and
// one call that runs the function calls of a [genai.GenerateContentResponse]
// and returns the contents to append to the history.
//
//	tools, err := tngenai.Tools(tk)
//	config := &genai.GenerateContentConfig{Tools: tools}
//	history := []*genai.Content{genai.NewContentFromText("Weather in Paris?", genai.RoleUser)}
//	for {
//		resp, err := client.Models.GenerateContent(ctx, model, history, config)
//		if err != nil {
//			return err
//		}
//		next, done, err := tngenai.Run(ctx, tk, resp)
//		if err != nil {
//			return err
//		}
//		history = append(history, next...)
//		if done {
//			fmt.Println(resp.Text())
//			break
//		}
//	}
//
// With a [genai.Chat], which keeps the history itself, [RunParts] gives the
// function responses to send back with Chat.Send.
//
// # Streaming
//
// A streamed response comes in chunks; [Collect] reads the iterator of
// Models.GenerateContentStream and joins its chunks ([Merge]) into the one
// response Run takes:
//
//	resp, err := tngenai.Collect(client.Models.GenerateContentStream(ctx, model, history, config))
//	if err != nil {
//		return err
//	}
//	next, done, err := tngenai.Run(ctx, tk, resp)
//
// Passing the last chunk alone would lose the parts of the others, and
// fails when it holds only the usage metadata ("no candidates"). Prefer
// this loop, with the history of your own, to a genai.Chat with
// SendStream: the Chat records each chunk's content as a content of its
// own, and leaves the whole turn out of its history when a chunk has no
// candidates (the usage-only chunk).
//
// The function calls' Args, which the SDK has already decoded into maps,
// reach [define.Tool.Execute] as they are: no marshal and parse round trip.
// The model's content is replayed as the SDK returned it, so thought
// signatures and call ids go back unchanged; each function response echoes
// its call's id and name, in call order, as [adapters.GeminiResults]
// renders it ({"output": ...} or {"error": "..."}).
//
// Two limits come from the SDK itself, which sends every request through a
// map[string]any: JSON object keys go out sorted (the order of a
// "parametersJsonSchema" is lost; "parameters" keeps it in
// propertyOrdering), and numbers, in arguments and in results, are float64
// on the way: integers beyond 2^53 in a call's Args are rounded by the SDK
// before Run sees them; a result holding a number that float64 would
// change is sent as its JSON text in a string, so that its digits reach
// the model exactly.
//
// # Results, transports and the Agent
//
// [Results] renders a turn's results, as [toolnexus.Toolkit.Run] returns
// them, as genai contents, and holds out the calls that wait for approval
// ([toolnexus.PendingCalls]) until [toolnexus.Toolkit.Resume] gives their
// results. [NewTransport] is a transport.Transport on the client (a
// request body's members sent through Models.GenerateContent, the raw
// reply read by adapters' parser: see [Transport]), and [NewAgent] runs a
// [toolnexus.Agent] over it:
//
//	agent, err := tngenai.NewAgent(client, tk, "gemini-2.5-flash")
//	...
//	run, err := agent.Run(ctx, "Weather in Paris?")
//	...
//	fmt.Println(run.Text)
package tngenai

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"google.golang.org/genai"
)

// ErrReply is wrapped by the error of [Run] and [RunParts] when the
// response cannot be answered with function responses: nil, without
// candidates (a blocked prompt), without content, or with a function call
// that has no name.
var ErrReply = errors.New("tngenai: unusable model response")

// Tools renders the toolkit's tools as the one [genai.Tool] that holds
// every function declaration, for [genai.GenerateContentConfig].Tools. The
// options are those of [adapters.ToGemini]; with
// [adapters.GeminiJSONSchema] (or wherever ToGemini chooses it) the schema
// goes in ParametersJsonSchema as the rendered JSON itself, otherwise the
// OpenAPI-subset "parameters" is decoded into a [genai.Schema], keeping
// PropertyOrdering. A keyword genai.Schema has no field for is an error,
// never dropped.
func Tools(tk *toolnexus.Toolkit, opts ...adapters.Option) ([]*genai.Tool, error) {
	rendered, err := tk.ToGemini(opts...)
	if err != nil {
		return nil, err
	}
	out := make([]*genai.Tool, len(rendered))
	for i, t := range rendered {
		decls := make([]*genai.FunctionDeclaration, len(t.FunctionDeclarations))
		for j, d := range t.FunctionDeclarations {
			fd := &genai.FunctionDeclaration{Name: d.Name, Description: d.Description}
			if len(d.ParametersJSONSchema) > 0 {
				fd.ParametersJsonSchema = d.ParametersJSONSchema
			}
			if len(d.Parameters) > 0 {
				s, err := decodeSchema(d.Parameters)
				if err != nil {
					return nil, fmt.Errorf("tngenai: tool %s: parameters: %w", d.Name, err)
				}
				fd.Parameters = s
			}
			decls[j] = fd
		}
		out[i] = &genai.Tool{FunctionDeclarations: decls}
	}
	return out, nil
}

// decodeSchema decodes a rendered "parameters" schema into genai's type,
// refusing keys it has no field for (they would be lost silently) and
// keeping default and example numbers exact.
func decodeSchema(raw json.RawMessage) (*genai.Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	s := new(genai.Schema)
	if err := dec.Decode(s); err != nil {
		return nil, err
	}
	return s, nil
}

// Run runs the function calls of resp's first candidate through
// [toolnexus.Toolkit.Run] (concurrently, results in call order) and returns
// the contents to append to the history: the model's content as the SDK
// returned it (role "model", thought signatures and call ids intact) and,
// when it called functions, the user content of function responses, one
// per call (a result's images and PDFs inline in its function response,
// genai's FunctionResponse.Parts), then, when results carry parts Gemini
// takes only in a user content of its own (audio, parts by URL, other
// types), that content: a text part naming each part's call, then its
// blob or file. done is true when the model called no function: next then
// holds only the model's content, and resp.Text() is its answer.
//
// A bad argument, an unknown tool or a tool's failure is not an error of
// Run: it goes back to the model as that call's {"error": ...} response, so
// the model can correct itself. Run fails only on a response it cannot
// answer ([ErrReply]).
//
// Run renders every result, a pending one (a tool that needs approval)
// as its "awaiting approval" error: with approval tools, run the calls
// with Toolkit.Run and render with [Results], which holds pending calls
// out, or use [NewAgent], which pauses the run.
func Run(ctx context.Context, tk *toolnexus.Toolkit, resp *genai.GenerateContentResponse, opts ...toolnexus.RunOption) (next []*genai.Content, done bool, err error) {
	model, err := modelContent(resp)
	if err != nil {
		return nil, false, err
	}
	parts, media, err := respond(ctx, tk, model, opts, true)
	if err != nil {
		return nil, false, err
	}
	if parts == nil {
		return []*genai.Content{model}, true, nil
	}
	next = []*genai.Content{model, {Role: genai.RoleUser, Parts: parts}}
	if media != nil {
		next = append(next, media)
	}
	return next, false, nil
}

// RunParts is [Run] for a [genai.Chat], which records the model's content
// itself: it returns only the function-response parts, to send with
// chat.Send(ctx, parts...), or nil when the model called no function.
// Images and PDFs of the results are inline in their function responses;
// a part Gemini takes only in a user content of its own (audio, a part by
// URL) cannot follow in one chat.Send, so such results are an error
// wrapping adapters.ErrMediaMessage: use Run with the Models API.
func RunParts(ctx context.Context, tk *toolnexus.Toolkit, resp *genai.GenerateContentResponse, opts ...toolnexus.RunOption) ([]*genai.Part, error) {
	model, err := modelContent(resp)
	if err != nil {
		return nil, err
	}
	parts, _, err := respond(ctx, tk, model, opts, false)
	return parts, err
}

// modelContent returns the first candidate's content, with role "model"
// when the server left it empty (a copy then; resp is not modified).
func modelContent(resp *genai.GenerateContentResponse) (*genai.Content, error) {
	if resp == nil {
		return nil, fmt.Errorf("%w: nil response", ErrReply)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			return nil, fmt.Errorf("%w: no candidates: prompt blocked (%s)", ErrReply, pf.BlockReason)
		}
		return nil, fmt.Errorf("%w: no candidates", ErrReply)
	}
	c := resp.Candidates[0]
	if c.Content == nil {
		return nil, fmt.Errorf("%w: candidates[0] has no content (finish reason %q)", ErrReply, c.FinishReason)
	}
	if c.Content.Role != "" {
		return c.Content, nil
	}
	m := *c.Content
	m.Role = genai.RoleModel
	return &m, nil
}

// respond runs the function calls of model and renders their responses,
// and, with media, the user content of the media Gemini takes only there;
// nil when there are none.
func respond(ctx context.Context, tk *toolnexus.Toolkit, model *genai.Content, opts []toolnexus.RunOption, media bool) ([]*genai.Part, *genai.Content, error) {
	var calls []adapters.Call
	for i, p := range model.Parts {
		if p == nil || p.FunctionCall == nil {
			continue
		}
		fc := p.FunctionCall
		if fc.Name == "" {
			return nil, nil, fmt.Errorf("%w: candidates[0].content.parts[%d].functionCall: missing name", ErrReply, i)
		}
		args := fc.Args
		if args == nil {
			args = map[string]any{} // no arguments; a nil Input would mean "read Args"
		}
		c := adapters.Call{ID: fc.ID, Name: fc.Name, Input: args}
		if len(p.ThoughtSignature) > 0 {
			c.ThoughtSignature = base64.StdEncoding.EncodeToString(p.ThoughtSignature)
		}
		calls = append(calls, c)
	}
	if len(calls) == 0 {
		return nil, nil, nil
	}
	return functionResponses(calls, tk.Run(ctx, calls, opts...), media, nil)
}

// functionResponses renders results as the function-response parts of
// calls and, with media, the user content of the media Gemini takes only
// there (nil when there are none): the one conversion of Run, RunParts
// and Results.
func functionResponses(calls []adapters.Call, results []define.Result, media bool, opts []adapters.Option) ([]*genai.Part, *genai.Content, error) {
	var rendered adapters.GeminiFunctionResponses
	var after *adapters.GeminiMediaContent
	var err error
	if media {
		rendered, after, err = adapters.GeminiResultsAndMedia(calls, results, opts...)
	} else {
		rendered, err = adapters.GeminiResults(calls, results, opts...)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tngenai: %w", err)
	}
	parts := make([]*genai.Part, len(rendered.Parts))
	for i, rp := range rendered.Parts {
		fr := rp.FunctionResponse
		resp := &genai.FunctionResponse{ID: fr.ID, Name: fr.Name, Response: responseMap(fr.Response)}
		for _, p := range fr.Parts {
			part := &genai.FunctionResponsePart{}
			if p.InlineData != nil {
				part.InlineData = &genai.FunctionResponseBlob{MIMEType: p.InlineData.MIMEType, Data: p.InlineData.Data}
			}
			if p.FileData != nil {
				part.FileData = &genai.FunctionResponseFileData{MIMEType: p.FileData.MIMEType, FileURI: p.FileData.FileURI}
			}
			resp.Parts = append(resp.Parts, part)
		}
		parts[i] = &genai.Part{FunctionResponse: resp}
	}
	if after == nil {
		return parts, nil, nil
	}
	content := &genai.Content{Role: genai.RoleUser, Parts: make([]*genai.Part, len(after.Parts))}
	for i, p := range after.Parts {
		part := &genai.Part{Text: p.Text}
		if p.InlineData != nil {
			part.InlineData = &genai.Blob{MIMEType: p.InlineData.MIMEType, Data: p.InlineData.Data}
		}
		if p.FileData != nil {
			part.FileData = &genai.FileData{MIMEType: p.FileData.MIMEType, FileURI: p.FileData.FileURI}
		}
		content.Parts[i] = part
	}
	return parts, content, nil
}

// responseMap is the response object of a function response, as
// [adapters.GeminiResults] renders it; the output stays the rendered JSON
// (a json.RawMessage), so that it is not parsed here only to be marshalled
// again by the SDK. A result of parts alone has the empty response.
//
// An output holding a number that float64 would change (an integer beyond
// 2^53, or more digits than a float64 keeps) goes as its JSON text in a
// string instead: the SDK marshals the whole request and decodes it into
// a map[string]any before sending it, so every number on the way becomes
// a float64 (a json.Number in the map is decoded the same way). The text
// keeps every digit for the model to read.
func responseMap(r adapters.GeminiResponse) map[string]any {
	switch {
	case r.Output != nil && !floatExact(r.Output):
		return map[string]any{"output": string(r.Output)}
	case r.Output != nil:
		return map[string]any{"output": r.Output}
	case r.Error != "":
		return map[string]any{"error": r.Error}
	}
	return map[string]any{}
}

// floatExact reports whether every number in the JSON text v keeps its
// value through a float64: time linear in len(v).
func floatExact(v json.RawMessage) bool {
	if !bytes.ContainsAny(v, "0123456789") {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return true // the end, or text that is no JSON (rendered by adapters, so never)
		}
		if n, ok := tok.(json.Number); ok && !numberExact(string(n)) {
			return false
		}
	}
}

// numberExact reports whether the JSON number s has the value of the
// float64 it parses to: the shortest text of that float64 has the same
// decimal digits and exponent.
func numberExact(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false // beyond float64's range
	}
	d1, e1 := decimal(s)
	d2, e2 := decimal(strconv.FormatFloat(f, 'e', -1, 64))
	return d1 == d2 && (d1 == "" || e1 == e2)
}

// decimal returns the significant digits of the number s, without
// leading or trailing zeros, and the power of ten of its last digit.
func decimal(s string) (digits string, exp int) {
	s = strings.TrimPrefix(s, "-")
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		s = s[:i]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		exp -= len(s) - i - 1
		s = s[:i] + s[i+1:]
	}
	s = strings.TrimLeft(s, "0")
	trimmed := strings.TrimRight(s, "0")
	exp += len(s) - len(trimmed)
	return trimmed, exp
}
