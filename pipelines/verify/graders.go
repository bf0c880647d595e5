package verify

import (
	"slices"
	"strings"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/answer"
	"github.com/datg/datg/transforms/mathverify"
)

// verdict is one grader's decision on one generation.
type verdict struct {
	Extracted string
	HasAnswer bool
	Correct   bool
	Reason    string
	Where     string
}

// gold is a gold answer parsed once by a grader, to grade many generations.
type gold interface {
	grade(text string, truncated bool) verdict
}

// grader is one of datg's graders.
type grader struct {
	name    string
	newGold func(gold string) gold
	// newCheck makes what grades bare (gold, prediction) pairs for datg
	// answers check, one run's pairs in order (it may keep golds parsed).
	newCheck func() pairCheck
}

// pairCheck grades answers check's (gold, prediction) pairs. The
// prediction is read only during the call (its buffers are reused).
type pairCheck struct {
	bytes func(gold string, pred []byte) verdict
	// text, if set, grades a prediction decoded from its JSON string
	// straight into the grader's runes (mathverify.Text), as bytes would
	// grade the string: the request reader then decodes it so.
	text func(gold string, pred *mathverify.Text) verdict
}

// keptGolds is how many recent gold answers answers check keeps parsed.
const keptGolds = 4096

// graders lists every grader (study.Graders), the default first.
var graders = []grader{
	{name: string(study.MathVerify), newGold: newMathVerifyGold, newCheck: newMathVerifyCheck},
	{name: string(study.Multilingual), newGold: newMultilingualGold, newCheck: func() pairCheck {
		return pairCheck{bytes: func(g string, p []byte) verdict { return verdict(answer.Check(g, string(p))) }}
	}},
}

// Graders are the graders' names, the default first.
func Graders() []string {
	names := make([]string, len(graders))
	for i, g := range graders {
		names[i] = g.name
	}
	return names
}

// DefaultGrader is the grader verify uses when none is named.
func DefaultGrader() string { return graders[0].name }

// lookupGrader finds a grader by name; "" is the default one.
func lookupGrader(name string) (grader, error) {
	if name == "" {
		return graders[0], nil
	}
	i := slices.IndexFunc(graders, func(g grader) bool { return g.name == name })
	if i < 0 {
		return grader{}, inputerr.Invalid(inputerr.BadField("Grader", "unknown grader %q (%s)", name, strings.Join(Graders(), " or ")))
	}
	return graders[i], nil
}

// mathVerifyGold grades as Math-Verify does, which reads the last answer
// of a generation whether or not the budget cut it off.
type mathVerifyGold struct{ g mathverify.Gold }

func newMathVerifyGold(g string) gold { return mathVerifyGold{mathverify.NewGold(g)} }

// newMathVerifyCheck is mathverify.Check, each gold parsed once while it
// is among the last keptGolds.
func newMathVerifyCheck() pairCheck {
	golds := mathverify.NewGolds(keptGolds)
	return pairCheck{
		bytes: func(g string, p []byte) verdict { return verdict(golds.Get(g).GradeBytes(p)) },
		text:  func(g string, p *mathverify.Text) verdict { return verdict(golds.Get(g).GradeText(p)) },
	}
}

func (m mathVerifyGold) grade(text string, _ bool) verdict { return verdict(m.g.Grade(text)) }

type multilingualGold struct{ g answer.Gold }

func newMultilingualGold(g string) gold { return multilingualGold{answer.NewGold(g)} }

func (m multilingualGold) grade(text string, truncated bool) verdict {
	return verdict(m.g.Grade(text, truncated))
}

// ReasonGoldUnparsed is the reason of a verdict whose gold answer gave the
// grader nothing to compare: never a silent false, and the tables count it.
const ReasonGoldUnparsed = mathverify.ReasonGoldUnparsed
