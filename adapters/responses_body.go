package adapters

// responsesBody writes an OpenAI Responses request (NewBody): the system
// prompt is its "instructions", the history its "input".
func responsesBody(_ *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
	if r.CacheTools || r.CacheSystem {
		return "", nil, errNoCacheBreakpoints
	}
	if r.Model != "" {
		w.str("model", r.Model)
	}
	if r.System != "" {
		w.str("instructions", r.System)
	}
	if r.tools != nil {
		w.raw("tools", r.tools)
	}
	if r.choice != "" {
		w.raw(r.choice, r.choiceValue)
	}
	if r.answer != "" {
		w.raw(r.answer, r.answerValue)
	}
	if r.MaxTokens > 0 {
		w.int("max_output_tokens", r.MaxTokens)
	}
	if r.Temperature != nil {
		w.float("temperature", *r.Temperature)
	}
	if r.ParallelToolCalls != nil {
		w.boolean("parallel_tool_calls", *r.ParallelToolCalls)
	}
	if r.Stream {
		w.boolean("stream", true)
	}
	return "input", nil, nil
}
