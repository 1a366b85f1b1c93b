#include <string>

#include "rffstream/stream/options.h"  // NoteChangedOptions

namespace rffstream {
namespace {

template <class T>
void NoteIfChanged(const T& value, const T& default_value, const char* name,
                   GivenOptions& given) {
  if (!(value == default_value)) given.Add(name);
}

}  // namespace

void NoteChangedOptions(InputOptions& options) {
  const InputOptions d;
  GivenOptions& given = options.given;
  NoteIfChanged(options.format, d.format, "format", given);
  NoteIfChanged(options.delimiter, d.delimiter, "delimiter", given);
  NoteIfChanged(options.dim, d.dim, "dim", given);
  NoteIfChanged(options.header, d.header, "header", given);
  NoteIfChanged(options.target, d.target, "target", given);
  NoteIfChanged(options.targets, d.targets, "targets", given);
  NoteIfChanged(options.ignore, d.ignore, "ignore", given);
  NoteIfChanged(options.categorical, d.categorical, "categorical", given);
  NoteIfChanged(options.category_buckets, d.category_buckets, "category_buckets", given);
  NoteIfChanged(options.classes, d.classes, "classes", given);
  NoteIfChanged(options.max_inputs, d.max_inputs, "max_inputs", given);
  NoteIfChanged(options.max_line_bytes, d.max_line_bytes, "max_line_bytes", given);
}

void NoteChangedOptions(ModelOptions& options) {
  const ModelOptions d;
  GivenOptions& given = options.given;
  NoteIfChanged(options.features, d.features, "features", given);
  NoteIfChanged(options.map, d.map, "map", given);
  NoteIfChanged(options.kernel, d.kernel, "kernel", given);
  NoteIfChanged(options.sampler, d.sampler, "sampler", given);
  NoteIfChanged(options.lengthscales, d.lengthscales, "lengthscales", given);
  NoteIfChanged(options.gamma, d.gamma, "gamma", given);
  NoteIfChanged(options.lengthscale, d.lengthscale, "lengthscale", given);
  NoteIfChanged(options.ridge, d.ridge, "ridge", given);
  NoteIfChanged(options.forget, d.forget, "forget", given);
  NoteIfChanged(options.intercept, d.intercept, "intercept", given);
  NoteIfChanged(options.seed, d.seed, "seed", given);
  NoteIfChanged(options.precision, d.precision, "precision", given);
  NoteIfChanged(options.loss, d.loss, "loss", given);
  NoteIfChanged(options.max_model_memory_mb, d.max_model_memory_mb, "max_model_memory_mb", given);
  NoteIfChanged(options.standardize, d.standardize, "standardize", given);
}

}  // namespace rffstream
