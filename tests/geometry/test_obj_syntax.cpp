// The strict OBJ check that runs before tinyobjloader, which would read what it cannot parse as 0:
// each bad line is named with its number and token.
#include <gtest/gtest.h>

#include <string>

#include "affix/geometry/obj_syntax.hpp"

namespace affix {
namespace {

const std::string kTet = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
const std::string kTetFaces = "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

/// The error for `text`, or "" when there is none.
std::string error_of(const std::string& text) { return find_obj_syntax_error(text).value_or(""); }

TEST(ObjSyntax, ValidFilesPass) {
  EXPECT_EQ(error_of(kTet + kTetFaces), "");
  EXPECT_EQ(error_of("# comment\n" + kTet + "vn 0 0 1\nvt 0.5 0.5\ng g1\nusemtl m\n" + kTetFaces), "");
  EXPECT_EQ(error_of("v 1.5e-3 -2E+2 +0.5 1.0  # with w and a comment\nv\t1\t2\t3\r\n"), "");
  EXPECT_EQ(error_of(kTet + "f 1/1/1 3//2 2/5\nf -4 -2 -3\n"), "");
  EXPECT_EQ(error_of("f 1 2 3\n" "v 0 0 0\nv 1 0 0\nv 0 1 0\n"), "");  // vertices after the face
  EXPECT_EQ(error_of(""), "");
}

TEST(ObjSyntax, NonNumbersInVerticesNameTheLineAndToken) {
  EXPECT_EQ(error_of("v 0 0 0\nv nan 0 0\n"),
            "line 2: expected a finite number as vertex coordinate, got 'nan'");
  EXPECT_EQ(error_of("v inf 1 2\n"), "line 1: expected a finite number as vertex coordinate, got 'inf'");
  EXPECT_EQ(error_of("v 1 2 -infinity\n"),
            "line 1: expected a finite number as vertex coordinate, got '-infinity'");
  EXPECT_EQ(error_of("v abc 0 0\n"), "line 1: expected a finite number as vertex coordinate, got 'abc'");
  EXPECT_EQ(error_of("v 1e999 0 0\n"), "line 1: expected a finite number as vertex coordinate, got '1e999'");
  EXPECT_EQ(error_of("v 0x10 0 0\n"), "line 1: expected a finite number as vertex coordinate, got '0x10'");
  EXPECT_EQ(error_of("v 1.2.3 0 0\n"), "line 1: expected a finite number as vertex coordinate, got '1.2.3'");
  EXPECT_EQ(error_of("v 1,5 0 0\n"), "line 1: expected a finite number as vertex coordinate, got '1,5'");
}

TEST(ObjSyntax, TooFewCoordinates) {
  EXPECT_EQ(error_of("v 1 2\n"), "line 1: expected a vertex with 3 coordinates x y z, got 2");
  EXPECT_EQ(error_of("v\n"), "line 1: expected a vertex with 3 coordinates x y z, got 0");
  EXPECT_EQ(error_of("v 1 2 # 3\n"), "line 1: expected a vertex with 3 coordinates x y z, got 2");
}

TEST(ObjSyntax, LineNumbersCountEveryKindOfLineEnd) {
  EXPECT_EQ(error_of("v 0 0 0\r\nv 0 0 0\r\n\r\nv x 0 0\r\n").substr(0, 7), "line 4:");
  EXPECT_EQ(error_of("v 0 0 0\rv 0 0 0\rv x 0 0\r").substr(0, 7), "line 3:");
  EXPECT_EQ(error_of("\n\n\nv x 0 0").substr(0, 7), "line 4:");
}

TEST(ObjSyntax, FaceIndicesOutOfRange) {
  EXPECT_EQ(error_of(kTet + "f 1 2 5\n"),
            "line 5: expected a vertex index from 1 to 4 (or from -1 to -4, counting back), got '5'");
  EXPECT_EQ(error_of(kTet + "f 0 1 2\n").substr(0, 60),
            "line 5: expected a vertex index from 1 to 4 (or from -1 to -");
  EXPECT_NE(error_of(kTet + "f 1 2 -5\n").find("got '-5'"), std::string::npos);
  EXPECT_NE(error_of("v 0 0 0\nf -1 -2 -3\nv 1 0 0\nv 0 1 0\n").find("line 2: "), std::string::npos);
  EXPECT_NE(error_of(kTet + "f 1 2 x\n").find("got 'x'"), std::string::npos);
  EXPECT_NE(error_of(kTet + "f 1 2 3x\n").find("got '3x'"), std::string::npos);
  EXPECT_NE(error_of(kTet + "f 1 2 99999999999999999999\n").find("got '99999999999999999999'"),
            std::string::npos);
  EXPECT_NE(error_of(kTet + "f 1 2 /1\n").find("got '/1'"), std::string::npos);
}

// tinyobjloader reads a corner's parts with atoi and fails on a 0 with "Failed parse 'f' line(e.g. zero
// value for face index. line 10.)": each such corner is named here instead.
TEST(ObjSyntax, FaceCornersWithBadTextureOrNormalIndices) {
  const std::string expected = "line 5: expected a corner v, v/vt, v//vn or v/vt/vn of non-zero integers, got '";
  EXPECT_EQ(error_of(kTet + "f 1/x 2 3 4\n"), expected + "1/x'");
  EXPECT_EQ(error_of(kTet + "f 1 2/0 3\n"), expected + "2/0'");
  EXPECT_EQ(error_of(kTet + "f 1 2//0 3\n"), expected + "2//0'");
  EXPECT_EQ(error_of(kTet + "f 1 2/1/x 3\n"), expected + "2/1/x'");
  EXPECT_EQ(error_of(kTet + "f 1 2/ 3\n"), expected + "2/'");
  EXPECT_EQ(error_of(kTet + "f 1 2// 3\n"), expected + "2//'");
  EXPECT_EQ(error_of(kTet + "f 1 2/1/1/1 3\n"), expected + "2/1/1/1'");
  EXPECT_EQ(error_of(kTet + "f 1 2 3 #c\n"), "");  // `#` starts a comment anywhere
  EXPECT_EQ(error_of(kTet + "f 1 2 3#c\n"), "");
  EXPECT_EQ(error_of(kTet + "f 1/-1 2/+1/2 3//-2\n"), "");
}

TEST(ObjSyntax, LinesAndPointsAreCheckedLikeFaces) {
  EXPECT_NE(error_of(kTet + "l 1 0\n").find("line 5: expected a vertex index"), std::string::npos);
  EXPECT_NE(error_of(kTet + "p 1 x\n").find("got 'x'"), std::string::npos);
  EXPECT_NE(error_of(kTet + "l 1 9\n").find("got '9'"), std::string::npos);
  EXPECT_EQ(error_of(kTet + "l 1 2 3\np 4\nl 1/1 2/2\n"), "");
}

TEST(ObjSyntax, SkinWeightJointIdsMustBeNonNegative) {
  EXPECT_EQ(error_of(kTet + "vw 1 -1 0.5\n"), "line 5: expected a non-negative number as joint id, got '-1'");
  EXPECT_NE(error_of(kTet + "vw 1 j 0.5\n").find("got 'j'"), std::string::npos);
  EXPECT_EQ(error_of(kTet + "vw 1 0 0.5 2 -0.5\n"), "");
}

TEST(ObjSyntax, CommentsAreStrippedKeepingLines) {
  EXPECT_EQ(strip_obj_comments("v 0 0 0 # a\n# whole line\r\nf 1 2 3#x\rf 4 5 6"), "v 0 0 0 \n\r\nf 1 2 3\rf 4 5 6");
  EXPECT_EQ(strip_obj_comments(""), "");
  EXPECT_EQ(strip_obj_comments("#"), "");
}

TEST(ObjSyntax, FacesNeedThreeCorners) {
  EXPECT_EQ(error_of(kTet + "f 1 2\n"), "line 5: expected a face with at least 3 corners, got 2");
}

TEST(ObjSyntax, LongTokensAreCut) {
  const std::string message = error_of("v " + std::string(1'000'000, 'z') + " 0 0\n");
  EXPECT_LT(message.size(), 200u);
  EXPECT_NE(message.find("(1000000 bytes)"), std::string::npos) << message;
}

}  // namespace
}  // namespace affix
