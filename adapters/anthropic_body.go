package adapters

import "errors"

// anthropicCache is Anthropic's prompt-cache breakpoint.
const anthropicCache = `"cache_control":{"type":"ephemeral"}`

// anthropicBody writes an Anthropic Messages request (NewBody): the
// system prompt as "system" (a text block when cached), cache_control on
// the last tool, and parallel calls turned off in the tool choice.
func anthropicBody(_ *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
	if r.MaxTokens == 0 {
		return "", nil, errors.New("Request.MaxTokens: Anthropic requires max_tokens")
	}
	if r.Model != "" {
		w.str("model", r.Model)
	}
	switch {
	case r.CacheSystem:
		b := appendString([]byte(`[{"type":"text","text":`), r.System)
		w.raw("system", append(b, ","+anthropicCache+"}]"...))
	case r.System != "":
		w.str("system", r.System)
	}
	if r.tools != nil {
		tools := r.tools
		if r.CacheTools {
			// the last tool, an object, ends the array: "...}]".
			tools = append(append(tools[:len(tools)-2:len(tools)-2], ","+anthropicCache...), '}', ']')
		}
		w.raw("tools", tools)
	}
	choice := r.choiceValue
	if r.ParallelToolCalls != nil && !*r.ParallelToolCalls {
		if choice == nil {
			choice = []byte(`{"type":"auto"}`)
		}
		if string(choice) != `{"type":"none"}` { // no calls at all: nothing to turn off
			o := newObject()
			o.boolean("disable_parallel_tool_use", true)
			choice = withMembers(choice, o)
		}
	}
	if choice != nil {
		w.raw("tool_choice", choice)
	}
	if r.answer != "" {
		w.raw(r.answer, r.answerValue)
	}
	w.int("max_tokens", r.MaxTokens)
	if r.Temperature != nil {
		w.float("temperature", *r.Temperature)
	}
	if r.Stream {
		w.boolean("stream", true)
	}
	return "messages", nil, nil
}
