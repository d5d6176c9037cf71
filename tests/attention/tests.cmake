# Attention kernels on tc5 (issue 32, part B), included from tests/CMakeLists.txt.
# FlashAttention-4's forward kernel (CuTe DSL, tests/data/attention/gen_fa4.py)
# and Gluon's Blackwell attention example (tests/data/attention/
# gen_gluon_attention.py), each run from the launch its own host code made,
# with the default checker on (a finding fails), O and the row statistics
# against float64 (tests/attention/*_run.py say the rules). The runs marked
# --long are skipped unless TC5_ATTENTION_LONG=1 (docs/flash_attention.md).
if(Python3_Interpreter_FOUND)
  set(TC5_ATT_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data/attention)
  foreach(v fwd_d64_s256 fwd_d64_s256_causal fwd_d128_s256 fwd_d128_s256_causal fwd_d128_s1024_causal)
    add_test(NAME attention_fa4_${v}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/attention/fa4_run.py $<TARGET_FILE:tc5_cli>
                     ${TC5_ATT_DATA}/fa4/fa4_${v}_main.json)
    set_tests_properties(attention_fa4_${v} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  # the census's FA4 forward: seqlen 1024, 2 heads, d 128, a CTA pair (cta_group::2)
  add_test(NAME attention_fa4_census_fwd_d128_s1024
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/attention/fa4_run.py $<TARGET_FILE:tc5_cli>
                   ${CMAKE_CURRENT_SOURCE_DIR}/data/ptx/census/fa4/fa4_fwd_noncausal_main.json)
  set_tests_properties(attention_fa4_census_fwd_d128_s1024 PROPERTIES SKIP_RETURN_CODE 77)
  foreach(v d64_n256_full_1cta d64_n256_causal_1cta d128_n256_full_1cta d128_n256_causal_1cta
            d64_n512_full_2cta d128_n512_causal_2cta d128_n1024_full_1cta)
    set(extra)
    if(v MATCHES "n1024")
      set(extra --long)
    endif()
    add_test(NAME attention_gluon_${v}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/attention/triton_attn_run.py
                     $<TARGET_FILE:tc5_cli> ${TC5_ATT_DATA}/gluon/gluon_attn_fp16_${v}.json ${extra})
    set_tests_properties(attention_gluon_${v} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  # Triton's tutorial 06 forward at the benchmark's size (bench/bench_attention.py)
  add_test(NAME attention_triton06_fwd_d128_n1024
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/attention/triton_attn_run.py
                   $<TARGET_FILE:tc5_cli> ${TC5_ATT_DATA}/triton06/t06_attn_fwd_fp16_d128_full.json --long)
  set_tests_properties(attention_triton06_fwd_d128_n1024 PROPERTIES SKIP_RETURN_CODE 77)
endif()
# The checker follows A in Tensor Memory over the columns its K elements take
# (bf16, K = 16: 8): a store left unwaited next to them (column 8) is no
# finding, one into them (column 7) is tmem-st-unwaited
add_test(NAME check_a_tmem_cols_next COMMAND $<TARGET_FILE:tc5_cli> run ${CMAKE_CURRENT_SOURCE_DIR}/data/check/a_tmem_cols.ptx
         --grid 1 --block 128 --arg u32:8)
set_tests_properties(check_a_tmem_cols_next PROPERTIES FAIL_REGULAR_EXPRESSION "error \\[")
add_test(NAME check_a_tmem_cols_inside COMMAND $<TARGET_FILE:tc5_cli> run ${CMAKE_CURRENT_SOURCE_DIR}/data/check/a_tmem_cols.ptx
         --grid 1 --block 128 --arg u32:7)
set_tests_properties(check_a_tmem_cols_inside PROPERTIES PASS_REGULAR_EXPRESSION "error \\[tmem-st-unwaited\\]")
