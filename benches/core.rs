//! Criterion benchmarks of the core paths: the node loop under each inference mode, Régin's
//! filtering (sudoku under mac), the bitmask counter, and min-conflicts.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use csp::{Inference, Solver, VarOrder};
use nqueens::{bitmask::Bitmask, min_conflicts, Encoding, QueensModel};
use std::hint::black_box;
use sudoku::{Reader, SudokuModel};

fn queens_engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens 10 count, csp engine");
    for (encoding, name) in [(Encoding::AllDiff, "alldiff"), (Encoding::Binary, "binary")] {
        let queens = QueensModel::new(10, encoding).unwrap_or_else(|e| panic!("{e}"));
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            group.bench_with_input(
                BenchmarkId::new(name, inference),
                &inference,
                |b, &inference| b.iter(|| Solver::new(&queens.model).inference(inference).count()),
            );
        }
    }
    group.finish();
}

fn bitmask(c: &mut Criterion) {
    c.bench_function("bitmask count 12", |b| {
        b.iter(|| Bitmask::new(black_box(12)).map(|s| s.count().stats.solutions))
    });
}

fn sudoku(c: &mut Criterion) {
    let text = include_str!("../crates/sudoku/tests/data/hardest.txt");
    let mut entries = Vec::new();
    let mut reader = Reader::new(None);
    for (i, line) in text.lines().enumerate() {
        reader.feed(i + 1, line, &mut entries);
    }
    let models: Vec<SudokuModel> = entries
        .into_iter()
        .filter_map(|e| e.puzzle.ok())
        .filter_map(|p| SudokuModel::new(&p.grid).ok())
        .collect();
    let mut group = c.benchmark_group("sudoku hardest (11 puzzles)");
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        group.bench_with_input(
            BenchmarkId::new("mrv", inference),
            &inference,
            |b, &inference| {
                b.iter(|| {
                    models
                        .iter()
                        .map(|m| {
                            Solver::new(&m.model)
                                .inference(inference)
                                .var_order(VarOrder::MinDomain)
                                .max_solutions(Some(1))
                                .count()
                        })
                        .sum::<u64>()
                })
            },
        );
    }
    group.finish();
}

fn local_search(c: &mut Criterion) {
    c.bench_function("min-conflicts 100,000", |b| {
        b.iter(|| {
            min_conflicts::solve(black_box(100_000), 1, &Default::default())
                .0
                .map(|q| q.len())
        })
    });
}

// The macro defines an undocumented function.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, queens_engine, bitmask, sudoku, local_search);
}

criterion_main!(group::benches);
