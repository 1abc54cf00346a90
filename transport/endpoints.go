package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/toolnexus/toolnexus/adapters"
)

// The providers' public base URLs.
const (
	OpenAIBase          = "https://api.openai.com/v1"
	MistralBase         = "https://api.mistral.ai/v1"
	AnthropicBase       = "https://api.anthropic.com/v1"
	GeminiBase          = "https://generativelanguage.googleapis.com/v1beta"
	OllamaBase          = "http://localhost:11434"
	AnthropicAPIVersion = "2023-06-01" // the anthropic-version header Anthropic sends
)

// OpenAI is OpenAI Chat Completions: POST {OpenAIBase}/chat/completions
// with the key as a Bearer token; a stream sets "stream": true and
// "stream_options": {"include_usage": true} (the usage chunk), unless the
// body sets stream_options itself.
func OpenAI(apiKey string) *Endpoint {
	return OpenAICompatible(adapters.ForOpenAI(), OpenAIBase, apiKey)
}

// OpenAICompatible is a server that speaks OpenAI Chat Completions (Groq,
// DeepSeek, xAI, vLLM, OpenRouter, ...), p its provider
// (adapters.ForOpenAI(adapters.Server(adapters.Groq))): POST
// {base}/chat/completions, as [OpenAI]. An empty apiKey sends no
// Authorization header.
func OpenAICompatible(p adapters.Provider, base, apiKey string) *Endpoint {
	base = strings.TrimSuffix(base, "/")
	return &Endpoint{Provider: p, URL: base + "/chat/completions", Header: bearer(apiKey), base: base,
		StreamBody: setMembers(member{"stream", "true", false}, member{"stream_options", `{"include_usage":true}`, true})}
}

// Mistral is Mistral's chat completions: POST {MistralBase}/chat/completions
// with a Bearer key; a stream sets "stream": true (Mistral's last chunk
// carries the usage).
func Mistral(apiKey string) *Endpoint {
	return &Endpoint{Provider: adapters.ForMistral(), URL: MistralBase + "/chat/completions", Header: bearer(apiKey), base: MistralBase,
		StreamBody: setMembers(member{"stream", "true", false})}
}

// OpenAIResponses is OpenAI's Responses API: POST {OpenAIBase}/responses
// with a Bearer key; a stream sets "stream": true.
func OpenAIResponses(apiKey string) *Endpoint {
	return &Endpoint{Provider: adapters.ForOpenAIResponses(), URL: OpenAIBase + "/responses", Header: bearer(apiKey), base: OpenAIBase,
		StreamBody: setMembers(member{"stream", "true", false})}
}

// Anthropic is Anthropic's Messages API: POST {AnthropicBase}/messages with
// the key in x-api-key and anthropic-version [AnthropicAPIVersion]; a
// stream sets "stream": true.
func Anthropic(apiKey string) *Endpoint {
	h := http.Header{}
	if apiKey != "" {
		h.Set("X-Api-Key", apiKey)
	}
	h.Set("Anthropic-Version", AnthropicAPIVersion)
	return &Endpoint{Provider: adapters.ForAnthropic(), URL: AnthropicBase + "/messages", Header: h, base: AnthropicBase,
		StreamBody: setMembers(member{"stream", "true", false})}
}

// Gemini is the Gemini API's model: POST
// {GeminiBase}/models/{model}:generateContent with the key in
// x-goog-api-key; a stream posts the same body to
// :streamGenerateContent?alt=sse (Server-Sent Events).
func Gemini(apiKey, model string) *Endpoint {
	h := http.Header{}
	if apiKey != "" {
		h.Set("X-Goog-Api-Key", apiKey)
	}
	m := GeminiBase + "/models/" + url.PathEscape(model)
	return &Endpoint{Provider: adapters.ForGemini(), URL: m + ":generateContent", StreamURL: m + ":streamGenerateContent?alt=sse",
		Header: h, base: GeminiBase}
}

// Bedrock is Bedrock's Converse API for model (a model or inference
// profile ID) in region: POST
// https://bedrock-runtime.{region}.amazonaws.com/model/{model}/converse, and
// /converse-stream for a stream (AWS's binary event stream), each request
// signed by sign ([SigV4.Sign] with Service "bedrock", or another signer;
// nil sends it unsigned, for a gateway that signs).
func Bedrock(region, model string, sign Signer) *Endpoint {
	base := "https://bedrock-runtime." + region + ".amazonaws.com"
	m := base + "/model/" + url.PathEscape(model)
	return &Endpoint{Provider: adapters.ForBedrock(), URL: m + "/converse", StreamURL: m + "/converse-stream", Sign: sign, base: base}
}

// Ollama is Ollama's chat API at base ("" is [OllamaBase]): POST
// {base}/api/chat. Ollama streams unless told not to: Send sets "stream":
// false, Stream "stream": true (NDJSON, one object a line).
func Ollama(base string) *Endpoint {
	if base == "" {
		base = OllamaBase
	}
	base = strings.TrimSuffix(base, "/")
	return &Endpoint{Provider: adapters.ForOllama(), URL: base + "/api/chat", base: base,
		WholeBody: setMembers(member{"stream", "false", false}), StreamBody: setMembers(member{"stream", "true", false})}
}

// bearer is the Authorization header of key; none when key is "".
func bearer(key string) http.Header {
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	return h
}

// member is a top-level member a BodyEdit sets: its key and JSON value;
// keep leaves a member the body has as it is.
type member struct {
	key, val string
	keep     bool
}

// setMembers is the BodyEdit that sets members at the top of a body, a
// JSON object: each replaces the member of its key (unless keep) or is
// added first.
func setMembers(ms ...member) BodyEdit {
	return func(body []byte) ([]byte, error) {
		type span struct{ from, to int }
		found := make([]span, len(ms))
		for i := range found {
			found[i] = span{-1, -1}
		}
		d := json.NewDecoder(bytes.NewReader(body))
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return nil, errors.New("transport: the request body is not a JSON object")
		}
		for d.More() {
			t, err := d.Token()
			if err != nil {
				return nil, fmt.Errorf("transport: the request body: %w", err)
			}
			key, _ := t.(string)
			from := int(d.InputOffset())
			var v json.RawMessage
			if err := d.Decode(&v); err != nil {
				return nil, fmt.Errorf("transport: the request body: %w", err)
			}
			for i, m := range ms {
				if m.key == key {
					found[i] = span{from, int(d.InputOffset())}
				}
			}
		}
		if t, err := d.Token(); err != nil || t != json.Delim('}') {
			return nil, errors.New("transport: the request body is not a JSON object")
		}
		if _, err := d.Token(); err != io.EOF {
			return nil, errors.New("transport: the request body has more than one JSON value")
		}
		out := make([]byte, 0, len(body)+64)
		open := bytes.IndexByte(body, '{') + 1
		out = append(out, body[:open]...)
		added := 0
		for i, m := range ms {
			if found[i].from < 0 {
				out = append(append(append(append(out, '"'), m.key...), `":`...), m.val...)
				out = append(out, ',')
				added++
			}
		}
		rest := body[open:]
		if added > 0 && bytes.TrimSpace(rest)[0] == '}' {
			out = out[:len(out)-1] // no member followed
		}
		// Replace the values of the members found, in body order.
		prev := open
		for {
			next := -1
			for i, f := range found {
				if f.from >= prev && !ms[i].keep && (next < 0 || f.from < found[next].from) {
					next = i
				}
			}
			if next < 0 {
				break
			}
			f := found[next]
			out = append(append(out, body[prev:f.from]...), ':')
			out = append(out, ms[next].val...)
			prev = f.to
		}
		return append(out, body[prev:]...), nil
	}
}
