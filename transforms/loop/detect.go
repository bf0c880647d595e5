package loop

import (
	"fmt"
	"strings"
)

// Detect runs the Loop-Retry test on a partial trace read at the checkpoint
// of a generation with budget tokens: tokens are the generated token ids so
// far and text is their decoded text. All statistics are computed and
// reported even when a guard (short, boxed, math progress) prevents the
// trigger. A non-positive budget is treated as C = 0, so nothing is short.
func Detect(tokens []int, text string, budget int) Stats {
	c := max(budget/4, 0)
	window := tokens[len(tokens)-min(Window, len(tokens)):]
	s := Stats{
		Budget:     budget,
		Checkpoint: c,
		Tokens:     len(tokens),
		Rep16:      RepRate(window, 16),
		Rep32:      RepRate(window, 32),
		TTR256:     TTR(window),
		MotifLen:   SuffixMotif(tokens),
	}
	s.Motif = s.MotifLen > 0
	fired := loopConditions(s)
	s.SurfaceLoop = len(fired) > 0
	s.MathProgress = MathProgress(text)
	s.Boxed = strings.Contains(text, `\boxed{`) || strings.Contains(text, `\boxed `)
	// 5n < 4C is n < 0.8C without rounding: with C = 1000, 799 tokens are
	// short and 800 are not.
	s.Short = 5*len(tokens) < 4*c
	s.Trigger = s.SurfaceLoop && !s.MathProgress && !s.Boxed && !s.Short
	s.Reason = reason(s, fired)
	return s
}

// loopConditions names the surface-loop conditions the statistics meet.
func loopConditions(s Stats) []string {
	var fired []string
	if s.Rep16 >= Rep16Loop {
		fired = append(fired, fmt.Sprintf("rep16 %.2f", s.Rep16))
	}
	if s.Rep32 >= Rep32Loop {
		fired = append(fired, fmt.Sprintf("rep32 %.2f", s.Rep32))
	}
	if s.Motif {
		fired = append(fired, fmt.Sprintf("motif %d", s.MotifLen))
	}
	if s.Rep16 >= Rep16Soft && s.TTR256 <= TTRSoft {
		fired = append(fired, fmt.Sprintf("rep16 %.2f with ttr %.2f", s.Rep16, s.TTR256))
	}
	return fired
}

// reason names the loop conditions that fired and, when the trigger did not
// fire on a loop, the guards that stopped it.
func reason(s Stats, fired []string) string {
	if !s.SurfaceLoop {
		return "no loop"
	}
	loop := "loop: " + strings.Join(fired, ", ")
	if s.Trigger {
		return loop
	}
	var guards []string
	if s.Short {
		guards = append(guards, fmt.Sprintf("short: %d tokens < 0.8C (C=%d)", s.Tokens, s.Checkpoint))
	}
	if s.Boxed {
		guards = append(guards, "boxed answer")
	}
	if s.MathProgress {
		guards = append(guards, "math progress")
	}
	return strings.Join(guards, "; ") + " (" + loop + ")"
}
