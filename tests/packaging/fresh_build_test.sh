#!/usr/bin/env bash
# fresh_build_test.sh: what scripts/build.sh (without --tests) builds is all
# that `cmake --install` and `cpack` take. The script configures a fresh
# tree exactly as it would (it runs scripts/build.sh, with a `cmake` first in
# PATH that sends the tree to a temporary directory and skips the build,
# which the suite's own build has done already); then every file that the
# tree's install rules copy from it is either made by its configure step or
# built by its default target (Ninja's `all`). install_test.sh and
# deb_test.sh then show that installing and packaging such a tree succeed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fresh=$tmp/build
real_cmake=$(command -v cmake)
mkdir "$tmp/bin"
cat > "$tmp/bin/cmake" <<WRAPPER
#!/usr/bin/env bash
# scripts/build.sh's cmake: its tree in $fresh, and no build.
[[ \${1:-} == --build ]] && exit 0
arguments=()
while ((\$#)); do
  if [[ \$1 == -B ]]; then arguments+=(-B "$fresh"); shift 2; else arguments+=("\$1"); shift; fi
done
exec "$real_cmake" "\${arguments[@]}"
WRAPPER
chmod +x "$tmp/bin/cmake"
PATH=$tmp/bin:$PATH "$repo/scripts/build.sh" > "$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; exit 1; }
[[ -f $fresh/build.ninja ]] || { echo "scripts/build.sh made no Ninja tree"; cat "$tmp/configure.log"; exit 1; }
grep -q '^NQUEENS_BUILD_TESTS:BOOL=OFF' "$fresh/CMakeCache.txt" \
  || { echo "scripts/build.sh no longer configures without the tests: update this test"; exit 1; }

# built_by_all FILE: whether Ninja's `all` depends on FILE, found by walking
# up from it through what uses it.
built_by_all() {
  local queue=("${1#"$fresh"/}") seen=" " node
  while ((${#queue[@]})); do
    node=${queue[0]}
    queue=("${queue[@]:1}")
    [[ $node == all ]] && return 0
    [[ $seen == *" $node "* ]] && continue
    seen+="$node "
    mapfile -t -O "${#queue[@]}" queue < <(ninja -C "$fresh" -t query "$node" 2>/dev/null \
      | sed -n '/^  outputs:/,$s/^    //p')
  done
  return 1
}
# What the install rules copy from the tree (not the variables they expand).
find "$fresh" -name cmake_install.cmake -exec grep -oh "\"$fresh/[^\"$]*\"" {} + | tr -d '"' \
  | grep -v '/cmake_install\.cmake$' | sort -u > "$tmp/installed"
[[ -s $tmp/installed ]] || { echo "no install rule copies a file of the tree"; exit 1; }
missing=0
while read -r file; do
  [[ -e $file ]] && continue
  built_by_all "$file" && continue
  # A directory (install(DIRECTORY), the site): built when `all` builds a
  # file in it.
  if [[ $file == */ ]]; then
    inside=$(ninja -C "$fresh" -t targets all | sed -n "s|^\\(${file#"$fresh"/}[^:]*\\):.*|\\1|p")
    [[ -n $inside ]] && built_by_all "$fresh/$(head -n 1 <<< "$inside")" && continue
  fi
  echo "installed but not built by scripts/build.sh: ${file#"$fresh"/}"
  missing=1
done < "$tmp/installed"
((missing == 0))
echo "scripts/build.sh builds the $(wc -l < "$tmp/installed") files the install rules copy"
