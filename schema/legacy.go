package schema

// readAs holds, per table and column, the SQL expression the run's views
// read the column as, where an older datg wrote its values differently.
// Each expression is over the subquery f holding a file's columns as the
// table declares them (NULL where the file lacks one), so old and new rows
// read alike in datg sql and datg tables. Files keep what they hold: a
// reader without datg sees the old values until the stage runs again.
var readAs = map[*Table]map[string]string{
	// compliance.detector held "<name>: <settings>" before the settings
	// column (v0.3.0): a row without settings is split at the first ": "
	// (a detector's name has no colon).
	Compliances.Table: {
		"detector": `CASE WHEN f.settings IS NULL AND strpos(f.detector, ': ') > 0
			THEN split_part(f.detector, ': ', 1) ELSE f.detector END`,
		"settings": `CASE WHEN f.settings IS NOT NULL THEN f.settings
			WHEN strpos(f.detector, ': ') > 0 THEN substr(f.detector, strpos(f.detector, ': ') + 2)
			ELSE '' END`,
	},
}

// ReadExpr is the SQL expression a view reads the column as, over the
// subquery f of a file's columns: f.<column>, or for values an older datg
// wrote differently, the expression that reads them as today's.
func (t *Table) ReadExpr(column string) string {
	if e, ok := readAs[t][column]; ok {
		return e
	}
	return "f." + column
}
