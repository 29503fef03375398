file(REMOVE_RECURSE
  "libsinew.a"
)
