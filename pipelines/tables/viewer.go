package tables

// Listing is an output table as a viewer lists it: its name (the query
// sql/tables/<Name>.sql) and the traces its cells are over.
type Listing struct {
	Name string
	// Scope names the traces the query reads: "probe" (base traces at the
	// probe's seed), "control" (the control study's), "reference" (the
	// accepted reference derivations) or "all".
	Scope string
}

// Listings are every output table in the paper's order (the registry's),
// so datg view links each cell to the traces behind it.
func Listings() []Listing {
	scope := map[string]string{probeTraces.where: "probe", controlTraces.where: "control", referenceTraces.where: "reference", allTraces.where: "all"}
	out := make([]Listing, len(registry))
	for i, t := range registry {
		out[i] = Listing{Name: t.Name, Scope: scope[t.Reads.where]}
	}
	return out
}
