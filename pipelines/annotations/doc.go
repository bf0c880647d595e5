// Package annotations draws the human audit of DATG (the paper's appendix
// "Human Evaluation of DATG") and writes it in the format datg import
// annotations reads, with every judgment left null for the annotators.
//
// The design, as the paper gives it: French, Swahili, Bengali and Telugu;
// 20 instances per difficulty level of each language (60 per language, 240
// in all). Where the paper is silent, the sample follows what its DATG
// tables diagnose:
//   - the traces are the run's base en-x traces (reasoning in the audited
//     language, English input): the traces the DATG tables score;
//   - every model of the run is pooled into one population per (language,
//     level) cell (the paper gives 60 per language, not per model);
//     Config.Models narrows it;
//   - each instance is the trace against its best reference DAG under one
//     aligner (scores.best: the DAG the DATG tables report), and the
//     aligner's harmful-action candidates on that pair are listed for
//     confirmation (the paper's HAR precision);
//   - only current scores count: the score's alignment, trace text and DAG
//     are the run's present ones (stg_alignment_lineage), as datg tables
//     requires.
//
// Draw: within each cell the candidates are ordered by SHA-256 of the seed
// and the trace id, and the first PerLevel are taken. The draw depends on
// nothing but the seed and the candidate set (not on file order or the
// other cells), the same seed gives a byte-identical file, another seed
// another draw. A cell with fewer candidates gives them all (Summary says
// which).
package annotations
