package llm

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/datg/datg/internal/inputerr"
)

// Options configure a Pool. Start from DefaultOptions.
type Options struct {
	// SlotsPerEndpoint bounds the requests in flight to one endpoint
	// (vLLM's max_num_seqs; the paper used 16).
	SlotsPerEndpoint int
	// MaxAttempts bounds the tries of one request across endpoints.
	MaxAttempts int
	// BackoffBase and BackoffMax shape the pause before a retry: it doubles
	// per attempt up to the cap, with jitter.
	BackoffBase, BackoffMax time.Duration
	// FailThreshold consecutive faults take an endpoint out of rotation.
	FailThreshold int
	// CooldownBase and CooldownMax bound how long an endpoint stays out
	// before one probe request tests it again; the pause doubles per trip.
	CooldownBase, CooldownMax time.Duration
	// Patience is how long every endpoint may be out of rotation before the
	// run fails. Endpoints that have never answered are given up on at once.
	Patience time.Duration
	// RequestTimeout bounds one attempt; zero (the default) gives each
	// attempt as long as its request's deadline, which grows with its
	// max_tokens (a 16k-token generation under load takes most of an
	// hour). An attempt that times out is retried but not held against
	// its endpoint.
	RequestTimeout time.Duration
	// RequestDeadline bounds one request from its first attempt to its
	// answer, every retry and pause included. Zero derives it from the
	// request's max_tokens (see requestDeadline): never less than
	// RequestTimeout, so one full attempt always fits.
	RequestDeadline time.Duration
	// StallTimeout is how long a response, once its first byte arrived, may
	// go without another byte; MinResponseRate (bytes a second, averaged
	// from the first byte once StallTimeout has passed) is the slowest it
	// may arrive. A server sends a non-streamed body at network speed, so
	// slower is a trickle, not a long generation: waiting for the first
	// byte is not bounded by either.
	StallTimeout    time.Duration
	MinResponseRate float64
	// ConnectTimeout bounds establishing a connection.
	ConnectTimeout time.Duration
	// Server is what the endpoints are (ServerVLLM, ServerOpenAI or
	// ServerModelStudio; empty
	// resolves from the endpoints' host in NewPool): it decides how a
	// request is put on the wire (Shape).
	Server string
	// ReasoningEffort is sent to OpenAI's reasoning models as
	// reasoning_effort (empty: the model's default).
	ReasoningEffort string
	// DryRun, when set, counts and estimates the requests instead of
	// sending them (see DryRun).
	DryRun *DryRun `json:"-"`
	// APIKey is sent as a bearer token. It never appears in an error.
	APIKey string `json:"-"`
	// Logf, when set, is told when an endpoint leaves or rejoins rotation.
	Logf func(format string, args ...any) `json:"-"`
}

// DefaultOptions are the settings for one vLLM server per GPU.
func DefaultOptions() Options {
	return Options{
		SlotsPerEndpoint: 16,
		MaxAttempts:      8,
		BackoffBase:      250 * time.Millisecond,
		BackoffMax:       20 * time.Second,
		FailThreshold:    3,
		CooldownBase:     time.Second,
		CooldownMax:      30 * time.Second,
		Patience:         2 * time.Minute,
		ConnectTimeout:   10 * time.Second,
		StallTimeout:     time.Minute,
		MinResponseRate:  64,
	}
}

// Validate reports settings that cannot work.
func (o Options) Validate() error {
	var p inputerr.Problems
	check := func(ok bool, field, format string, args ...any) {
		if !ok {
			p.Add(field, format, args...)
		}
	}
	check(o.SlotsPerEndpoint >= 1, "SlotsPerEndpoint", "slots per endpoint must be at least 1, not %d", o.SlotsPerEndpoint)
	check(o.MaxAttempts >= 1, "MaxAttempts", "max attempts must be at least 1, not %d", o.MaxAttempts)
	check(o.FailThreshold >= 1, "FailThreshold", "fail threshold must be at least 1, not %d", o.FailThreshold)
	check(o.BackoffBase > 0 && o.BackoffMax >= o.BackoffBase, "BackoffBase", "backoff %v..%v is not a range", o.BackoffBase, o.BackoffMax)
	check(o.CooldownBase > 0 && o.CooldownMax >= o.CooldownBase, "CooldownBase", "cooldown %v..%v is not a range", o.CooldownBase, o.CooldownMax)
	check(o.Patience > 0, "Patience", "patience must be positive")
	check(o.RequestTimeout >= 0, "RequestTimeout", "request timeout must not be negative (0 grows with the budget)")
	check(o.ConnectTimeout > 0, "ConnectTimeout", "connect timeout must be positive")
	check(o.RequestDeadline >= 0, "RequestDeadline", "request deadline must not be negative, not %v", o.RequestDeadline)
	check(o.StallTimeout > 0, "StallTimeout", "stall timeout must be positive, not %v", o.StallTimeout)
	check(o.MinResponseRate >= 0 && !math.IsInf(o.MinResponseRate, 0), "MinResponseRate", "minimum response rate must be a non-negative number of bytes a second, not %v", o.MinResponseRate)
	check(o.Server == "" || o.Server == ServerVLLM || o.Server == ServerOpenAI || o.Server == ServerModelStudio, "Server", "server %q is none of %s, %s, %s", o.Server, ServerVLLM, ServerOpenAI, ServerModelStudio)
	check(o.ReasoningEffort == "" || slices.Contains(ReasoningEfforts, o.ReasoningEffort), "ReasoningEffort", "reasoning effort %q is none of %s", o.ReasoningEffort, strings.Join(ReasoningEfforts, ", "))
	check(headerSafe(o.APIKey), "APIKey", "the API key holds characters an HTTP header cannot carry (a line break?)")
	return p.Err()
}

// headerSafe reports whether s can be sent in an HTTP header: Go's transport
// refuses control characters before it sends anything.
func headerSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
