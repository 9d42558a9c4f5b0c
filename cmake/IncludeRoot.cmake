# nqueens_include_root(TARGET [SOURCE_DIR]): TARGET's headers are included as
# "FOLDER/name.h", FOLDER being SOURCE_DIR's name (default: the folder of the
# calling CMakeLists.txt; "client/boards/board_io.h"). The include path holds
# a link to that folder alone, not the whole tree, so that no one reaches the
# core's internals through it.
function(nqueens_include_root target)
  set(source_dir ${CMAKE_CURRENT_SOURCE_DIR})
  if(ARGC GREATER 1)
    set(source_dir ${ARGV1})
  endif()
  get_filename_component(folder ${source_dir} NAME)
  set(root ${PROJECT_BINARY_DIR}/include_roots/${folder})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${source_dir} ${root}/${folder} SYMBOLIC)
  target_include_directories(${target} PUBLIC ${root})
endfunction()

# nqueens_subsystem(NAME [DEPENDS dep...] [SOURCES file...] [PUBLIC lib...]
#                   [PRIVATE lib...]): nqueens_FOLDER_NAME, FOLDER being the
# folder of the calling CMakeLists.txt (server, client): every .cc in NAME/
# (and SOURCES), as an object library that sees NAME/ and its DEPENDS (as
# "FOLDER/NAME/..."), linked against the given libraries and, for their
# headers' needs, the DEPENDS' ones. DEPENDS lists every subsystem whose
# headers NAME's files reach, through other headers too. A new file joins its
# subsystem by lying in its folder; CONFIGURE_DEPENDS makes the build notice
# it. The root is made afresh, so that a dependency taken off the list is
# gone at once.
function(nqueens_subsystem name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "DEPENDS;SOURCES;PUBLIC;PRIVATE")
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(root ${PROJECT_BINARY_DIR}/include_roots/${folder}_${name})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root}/${folder})
  foreach(visible IN LISTS name ARG_DEPENDS)
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${visible} ${root}/${folder}/${visible} SYMBOLIC)
  endforeach()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cc)
  add_library(nqueens_${folder}_${name} OBJECT ${sources} ${ARG_SOURCES})
  target_include_directories(nqueens_${folder}_${name} PRIVATE ${root})
  list(TRANSFORM ARG_DEPENDS PREPEND nqueens_${folder}_ OUTPUT_VARIABLE depends)
  target_link_libraries(nqueens_${folder}_${name}
    PUBLIC ${depends} ${ARG_PUBLIC} absl::status absl::statusor absl::strings absl::time
      absl::synchronization
    PRIVATE ${ARG_PRIVATE})
endfunction()
