package inputerr

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func TestInvalid(t *testing.T) {
	if Invalid() != nil || Invalid(nil, nil) != nil {
		t.Fatal("no problems must be no error")
	}
	inner := Invalid(errors.New("model is empty"), fs.ErrNotExist)
	err := Invalid(errors.New("limit is negative"), inner)
	if !errors.Is(err, ErrInvalidConfig) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v does not wrap its causes", err)
	}
	msg := err.Error()
	if strings.Count(msg, ErrInvalidConfig.Error()) != 1 {
		t.Fatalf("nested configs repeat the prefix: %q", msg)
	}
	for _, want := range []string{"limit is negative", "model is empty", "file does not exist"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("%q lacks %q", msg, want)
		}
	}
}

func TestErrorNamesThePlace(t *testing.T) {
	cause := errors.New("not a number")
	cases := []struct {
		err  *Error
		want string
	}{
		{At("in.jsonl", 3, cause), "not a number (in.jsonl:3)"},
		{At("in.jsonl", 0, cause), "not a number (in.jsonl)"},
		{Field("in.jsonl", 7, "seed", cause), "seed: not a number (in.jsonl:7)"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
		if !errors.Is(c.err, cause) {
			t.Errorf("%v does not wrap its cause", c.err)
		}
	}
}

func TestFieldsAreFoundThroughWrapsAndJoins(t *testing.T) {
	limit := BadField("Limit", "must not be negative, not %d", -1)
	model := BadField("Model", "%w", fs.ErrNotExist)
	err := fmt.Errorf("setting up: %w", Invalid(limit, errors.New("other"), model))
	got := Fields(err)
	if len(got) != 2 || got[0] != limit || got[1] != model {
		t.Fatalf("Fields = %v, want [%v %v]", got, limit, model)
	}
	if want := "Limit: must not be negative, not -1"; limit.Error() != want {
		t.Errorf("Error() = %q, want %q", limit.Error(), want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v does not wrap the field's cause", err)
	}
}

func TestProblemsNameTheirFields(t *testing.T) {
	var p Problems
	if p.Err() != nil {
		t.Fatal("no problems must be no error")
	}
	p.Add("Limit", "must not be negative")
	p.Check("MaxTokens", nil)
	p.Check("Seed", fs.ErrInvalid)
	p.Nested(Invalid(BadField("Model", "none given")))
	err := p.Err()
	if !errors.Is(err, ErrInvalidConfig) || !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("%v does not wrap ErrInvalidConfig and its causes", err)
	}
	var got []string
	for _, fe := range Fields(err) {
		got = append(got, fe.Field)
	}
	if want := []string{"Limit", "Seed", "Model"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("fields = %v, want %v", got, want)
	}
	if n := strings.Count(err.Error(), ErrInvalidConfig.Error()); n != 1 {
		t.Errorf("%q says %q %d times, want once", err, ErrInvalidConfig, n)
	}
}
