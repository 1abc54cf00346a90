package adapters

// openAIBody writes an OpenAI Chat Completions request (NewBody), a
// compatible server's too (whose maximum is "max_tokens", the name every
// server of that shape reads; OpenAI's own is "max_completion_tokens").
func openAIBody(p *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
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
		if p.base != nil {
			w.int("max_tokens", r.MaxTokens)
		} else {
			w.int("max_completion_tokens", r.MaxTokens)
		}
	}
	if r.Temperature != nil {
		w.float("temperature", *r.Temperature)
	}
	if r.ParallelToolCalls != nil {
		w.boolean("parallel_tool_calls", *r.ParallelToolCalls)
	}
	if r.Stream {
		w.boolean("stream", true)
		w.raw("stream_options", []byte(`{"include_usage":true}`))
	}
	return "messages", systemMessage(r.System), nil
}
