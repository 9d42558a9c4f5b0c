# nqueens_include_root(TARGET): TARGET's headers are included as
# "FOLDER/name.h", FOLDER being the folder of the calling CMakeLists.txt
# ("client/board_io.h"). The include path holds a link to that folder alone, not
# the whole tree, so that no one reaches the core's internals through it.
function(nqueens_include_root target)
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(root ${PROJECT_BINARY_DIR}/include_roots/${folder})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
  target_include_directories(${target} PUBLIC ${root})
endfunction()
