package tables

import (
	"strconv"
)

// complianceAgreement lays out compliance_agreement like the compliance
// table: a row per pair en-x, a column per (model, level); each cell is
// "langdetect/lingua" in percent, followed by the number of traces the two
// decide differently when there are any.
func complianceAgreement(r *result, _ layoutOpts) grid {
	iLD, iLI, iDis := r.col("pct_langdetect"), r.col("pct_lingua"), r.col("disagree")
	return langByModelLevel(r, "Reasoning language compliance (%) under en-x by the two detectors of datg langcheck: langdetect (the paper's rule) / lingua (datg's segment detector); in parentheses, the traces they decide differently.",
		"Pair", pairName, complianceLangs, func(row []any) string {
			cell := fixedN(row[iLD], 1) + "/" + fixedN(row[iLI], 1)
			if n, ok := row[iDis].(int64); ok && n > 0 {
				cell += " (" + strconv.FormatInt(n, 10) + ")"
			}
			return cell
		})
}

// detectionChecks finds stale detections: every trace needs a row of each
// detector for its current text (langcheck writes both in the commit that
// writes compliance).
var detectionChecks = []staleCheck{tracesCheck(
	`SELECT DISTINCT t.trace_id FROM traces t
		CROSS JOIN (VALUES ('langdetect'), ('lingua')) AS d(detector)
		LEFT JOIN (SELECT * FROM detections WHERE in_score_partition(trace_id)) x
			ON x.trace_id = t.trace_id AND x.detector = d.detector
		WHERE in_score_partition(t.trace_id) AND (x.trace_id IS NULL OR x.text_hash IS DISTINCT FROM t.text_hash)`,
	"%d %s lack a detections row of each detector for their current text")}
