package llm

// SentSampling is what a request told the server about sampling, as the
// traces table records it: nil where the request did not send the field.
type SentSampling struct {
	MaxTokens         *int64
	Temperature       *float64
	TopP              *float64
	TopK              *int64
	RepetitionPenalty *float64
}

// Sent is the sampling the (shaped) request sends. Temperature and top_p
// are sent on the sampling wire, always (a zero temperature explicitly);
// top_k and repetition_penalty only when the request carries them.
func (r Request) Sent() SentSampling {
	s := SentSampling{}
	if r.MaxTokens > 0 {
		s.MaxTokens = ptr(int64(r.MaxTokens))
	}
	if r.Wire != WireReasoning {
		s.Temperature, s.TopP = ptr(r.Temperature), ptr(r.TopP)
	}
	if k, ok := r.Extra["top_k"].(int); ok {
		s.TopK = ptr(int64(k))
	}
	if p, ok := r.Extra["repetition_penalty"].(float64); ok {
		s.RepetitionPenalty = ptr(p)
	}
	return s
}

func ptr[T any](v T) *T { return &v }
