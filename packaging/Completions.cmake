# cmake -DCLI=... -DOUTPUT=... -P Completions.cmake
# Writes OUTPUT/nqueens.bash and OUTPUT/_nqueens, the bash and zsh completion
# scripts, as `nqueens completion bash|zsh` prints them.
foreach(shell_and_file "bash;nqueens.bash" "zsh;_nqueens")
  list(GET shell_and_file 0 shell)
  list(GET shell_and_file 1 file)
  execute_process(COMMAND ${CLI} completion ${shell} OUTPUT_FILE ${OUTPUT}/${file}
    RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "${CLI} completion ${shell} failed")
  endif()
endforeach()
