{
  "targets": [
    {
      "target_name": "nightjar_prover",
      "sources": ["native/addon.cpp", "native/prover.cpp"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-O3", "-fexceptions", "-pthread"],
      "ldflags": ["-pthread"],
      "defines": ["NAPI_VERSION=8"],
      "conditions": [
        ["target_arch=='x64'", { "cflags_cc": ["-march=x86-64", "-mtune=generic"] }]
      ]
    },
    {
      "target_name": "ptau_prepare",
      "type": "executable",
      "sources": ["native/ptau-prepare.cpp"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-O3", "-fexceptions", "-pthread"],
      "ldflags": ["-pthread"],
      "conditions": [
        ["target_arch=='x64'", { "cflags_cc": ["-march=x86-64", "-mtune=generic"] }]
      ]
    }
  ]
}
