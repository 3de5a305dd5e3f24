// SPDX-License-Identifier: Apache-2.0
// rowstats: per-row sums, per-row maxima and per-column maxima of a float matrix, computed with
// simdgen-generated kernels (specs/*.json). Usage: rowstats FILE
//
// FILE starts with a text line "ROWS COLS" followed by ROWS*COLS values as text (row-major), or
// "ROWS COLS binary" followed, after the newline, by ROWS*COLS little-endian IEEE floats.
// Results go to stdout, one line per row and per column; the kernel variants in use go to stderr.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "col_max_f32.h"
#include "row_max_f32.h"
#include "row_sum_f32.h"

namespace {

struct Matrix {
  int64_t rows = 0, cols = 0, stride = 0;
  std::vector<float> data;  // rows * stride, row i at data[i * stride]
};

bool fail(const std::string& message) {
  std::cerr << "rowstats: " << message << "\n";
  return false;
}

bool readMatrix(const char* path, Matrix& m) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(std::string(path) + ": cannot open");
  std::string header, format;
  std::getline(in, header);
  std::istringstream hs(header);
  if (!(hs >> m.rows >> m.cols) || m.rows < 0 || m.cols < 0)
    return fail(std::string(path) + ": first line must be \"ROWS COLS [binary]\"");
  hs >> format;
  // Rows padded to a multiple of 16 floats to use the kernels' row stride. The padding holds a
  // huge value, so a kernel reading past a row end would show in the results.
  m.stride = (m.cols + 15) / 16 * 16;
  m.data.assign(static_cast<size_t>(m.rows * m.stride), 1e30f);
  for (int64_t i = 0; i < m.rows; ++i) {
    float* row = m.data.data() + i * m.stride;
    if (format == "binary") {
      std::vector<unsigned char> bytes(static_cast<size_t>(m.cols) * 4);
      if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
        return fail(std::string(path) + ": truncated binary data");
      for (int64_t j = 0; j < m.cols; ++j) {  // little-endian on any host
        const unsigned char* b = &bytes[static_cast<size_t>(j) * 4];
        uint32_t bits = b[0] | b[1] << 8 | b[2] << 16 | static_cast<uint32_t>(b[3]) << 24;
        std::memcpy(&row[j], &bits, 4);
      }
    } else {
      for (int64_t j = 0; j < m.cols; ++j)
        if (!(in >> row[j])) return fail(std::string(path) + ": expected " + std::to_string(m.rows * m.cols) + " values");
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: rowstats FILE\n";
    return 2;
  }
  Matrix m;
  if (!readMatrix(argv[1], m)) return 1;

  std::vector<float> sums(static_cast<size_t>(m.rows)), maxima(static_cast<size_t>(m.rows));
  std::vector<float> colMaxima(static_cast<size_t>(m.cols));
  row_sum_f32(m.data.data(), m.rows, m.cols, m.stride, sums.data());
  row_max_f32(m.data.data(), m.rows, m.cols, m.stride, maxima.data());
  // Column maxima are a reduction along axis 0 (no transpose needed).
  col_max_f32(m.data.data(), m.rows, m.cols, m.stride, colMaxima.data());

  std::cerr << "variants: row_sum_f32=" << row_sum_f32_variant() << " row_max_f32=" << row_max_f32_variant()
            << " col_max_f32=" << col_max_f32_variant() << "\n";
  // %.9g round-trips a float, so equal output means equal results.
  std::printf("rows %lld cols %lld\n", static_cast<long long>(m.rows), static_cast<long long>(m.cols));
  for (int64_t i = 0; i < m.rows; ++i)
    std::printf("row %lld sum %.9g max %.9g\n", static_cast<long long>(i), sums[i], maxima[i]);
  for (int64_t j = 0; j < m.cols; ++j)
    std::printf("col %lld max %.9g\n", static_cast<long long>(j), colMaxima[j]);
  return 0;
}
