package inputerr

import (
	"errors"
	"slices"
	"testing"
)

func TestNestNamesFieldsOfTheParent(t *testing.T) {
	inner := Invalid(BadField("Endpoints", "none given"), errors.New("no data directory"), BadField("Study.Models", "none given"))
	err := Nest("Generation", inner)
	var got []string
	for _, fe := range Fields(err) {
		got = append(got, fe.Field)
	}
	want := []string{"Generation.Endpoints", "Generation.Study.Models"}
	if !slices.Equal(got, want) {
		t.Fatalf("fields %q, want %q", got, want)
	}
	const msg = "invalid configuration: Generation.Endpoints: none given\nno data directory\nGeneration.Study.Models: none given"
	if err.Error() != msg {
		t.Fatalf("message %q, want %q", err.Error(), msg)
	}
	if Nest("Generation", nil) != nil {
		t.Fatal("Nest(nil) is not nil")
	}
}
