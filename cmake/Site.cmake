# The documentation site: docs/ built by mkdocs (mkdocs.yml, with the Material
# theme) into site/ of the build tree, installed as share/doc/nqueens/html.
# Built with --strict after scripts/generate-reference.py --check: a reference
# page older than the programs' --help or the .proto, a broken link, a page
# missing from the nav or a link to an anchor its page lacks
# (scripts/mkdocs_hooks.py) fails the build.
#
# Included by the top CMakeLists.txt for builds that package the programs
# (their --help is read): NQUEENS_BUILD_SITE (on by default) adds the site to
# `all`; CTest's docs.reference_current runs the reference check either way.
include(GNUInstallDirs)

# The Python that Debian's mkdocs runs with, as the tests' scripts use.
set(site_python /usr/bin/python3)
set(reference_check ${site_python} -B ${PROJECT_SOURCE_DIR}/scripts/generate-reference.py
  --check --client $<TARGET_FILE:nqueens> --server $<TARGET_FILE:nqueens-server>
  --checker $<TARGET_FILE:nqueens-check-certificate>)
if(NQUEENS_BUILD_TESTS)
  add_test(NAME docs.reference_current COMMAND ${reference_check})
  set_tests_properties(docs.reference_current PROPERTIES TIMEOUT 120)
endif()

if(NQUEENS_BUILD_SITE)
  execute_process(COMMAND ${site_python} -c "import mkdocs, material, pymdownx"
    RESULT_VARIABLE site_tools_missing OUTPUT_QUIET ERROR_QUIET)
  if(site_tools_missing)
    message(FATAL_ERROR "The documentation site needs mkdocs and mkdocs-material for "
      "${site_python}: sudo apt-get install mkdocs mkdocs-material (scripts/install-deps.sh "
      "--build installs them), or configure with -DNQUEENS_BUILD_SITE=OFF.")
  endif()

  # What the site is made of: the pages and pictures, the files pages include
  # (pymdownx.snippets' `--8<-- "PATH"` lines, PATH from the repository's
  # root; found at configure time), the configuration and hook, and what the
  # reference pages are checked against.
  file(GLOB_RECURSE site_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*)
  set(site_sources ${site_pages})
  foreach(page IN LISTS site_pages)
    if(page MATCHES "\\.md$")
      file(STRINGS ${page} snippet_lines REGEX "^[ \t]*--8<-- \"[^\"]+\"")
      foreach(line IN LISTS snippet_lines)
        string(REGEX REPLACE "^[ \t]*--8<-- \"([^\"]+)\".*" "\\1" snippet "${line}")
        list(APPEND site_sources ${PROJECT_SOURCE_DIR}/${snippet})
      endforeach()
    endif()
  endforeach()
  list(APPEND site_sources ${PROJECT_SOURCE_DIR}/mkdocs.yml
    ${PROJECT_SOURCE_DIR}/scripts/mkdocs_hooks.py
    ${PROJECT_SOURCE_DIR}/scripts/generate-reference.py
    ${PROJECT_SOURCE_DIR}/scripts/proto_text.py
    ${PROJECT_SOURCE_DIR}/proto/nqueens/v1/nqueens.proto)

  set(site_dir ${CMAKE_BINARY_DIR}/site)
  # From the repository's root, which the snippets' paths start from.
  add_custom_command(OUTPUT ${site_dir}/index.html
    COMMAND ${reference_check}
    COMMAND ${site_python} -B -m mkdocs build --strict
      --config-file ${PROJECT_SOURCE_DIR}/mkdocs.yml --site-dir ${site_dir}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    DEPENDS ${site_sources} nqueens nqueens-server nqueens-check-certificate
    COMMENT "Building the documentation site (mkdocs build --strict) into site/"
    VERBATIM)
  add_custom_target(nqueens_site ALL DEPENDS ${site_dir}/index.html)
  # Not the sitemaps, of no use offline, which carry the build's date (the .gz
  # in its header too: lintian's package-contains-timestamped-gzip).
  install(DIRECTORY ${site_dir}/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/html
    PATTERN "sitemap.xml*" EXCLUDE)
endif()
