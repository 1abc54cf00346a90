package adapters

// mistralBody writes a Mistral chat completions request (NewBody).
func mistralBody(_ *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
	if r.CacheTools || r.CacheSystem {
		return "", nil, errNoCacheBreakpoints
	}
	if r.Model != "" {
		w.str("model", r.Model)
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
		w.int("max_tokens", r.MaxTokens)
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
	return "messages", systemMessage(r.System), nil
}
