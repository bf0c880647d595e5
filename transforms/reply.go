package transforms

import "strings"

// AnswerPart is a model reply without its reasoning block: what follows the
// first </think> (where vLLM's reasoning parsers cut), or the whole reply
// when it has none. A DAG or an alignment is parsed from it, so a JSON
// object sketched while reasoning is never taken for the answer.
func AnswerPart(reply string) string {
	if _, after, ok := strings.Cut(reply, ThinkClose); ok {
		return after
	}
	return reply
}
