#include "affix/render/gl_renderer.hpp"

#include <GL/osmesa.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "affix/render/lighting.hpp"

namespace affix {

struct OffscreenRenderer::Context {
  OSMesaContext handle = nullptr;
  std::vector<std::uint8_t> buffer;  // RGBA, bottom row first: where OSMesa draws
};

OffscreenRenderer::OffscreenRenderer(int width, int height, int supersample)
    : width_(width), height_(height), supersample_(std::max(1, supersample)), context_(std::make_unique<Context>()) {
  // RGBA colour, 24-bit depth, 8-bit stencil (the shadows use it), no accumulation buffer.
  context_->handle = OSMesaCreateContextExt(OSMESA_RGBA, 24, 8, 0, nullptr);
  if (context_->handle == nullptr) throw std::runtime_error("OSMesa cannot create an OpenGL context");
  context_->buffer.resize(static_cast<std::size_t>(width_ * supersample_) * (height_ * supersample_) * 4);
}

OffscreenRenderer::~OffscreenRenderer() { OSMesaDestroyContext(context_->handle); }

namespace {

std::array<float, 4> rgba(const Vec3& c, double a = 1.0) { return {float(c.x()), float(c.y()), float(c.z()), float(a)}; }

/// Clip planes around everything that may be drawn: depths of `bounds`' corners along the view, with
/// near kept ≥ far/10⁴ so that a camera inside the box keeps 24-bit depth precision.
std::array<double, 2> clip_planes(const Aabb& bounds, const Camera& camera) {
  const Vec3 forward = camera_axes(camera).col(2);
  double lo = 1e300, hi = -1e300;
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner(k & 1 ? bounds.max.x() : bounds.min.x(), k & 2 ? bounds.max.y() : bounds.min.y(),
                      k & 4 ? bounds.max.z() : bounds.min.z());
    const double depth = (corner - camera.position).dot(forward);
    lo = std::min(lo, depth);
    hi = std::max(hi, depth);
  }
  const double far = std::max(hi * 1.05, 1e-3);
  return {std::max(lo * 0.95, far * 1e-4), far};
}

void set_lights(const Lights& lights) {
  const std::array<float, 4> none = {0, 0, 0, 1};
  const std::array<float, 4> ambient = rgba(Vec3::Constant(lights.ambient));
  glLightModelfv(GL_LIGHT_MODEL_AMBIENT, ambient.data());
  const GLenum ids[2] = {GL_LIGHT0, GL_LIGHT1};
  const Vec3 directions[2] = {lights.key, lights.fill};
  const double intensities[2] = {lights.key_intensity, lights.fill_intensity};
  for (int i = 0; i < 2; ++i) {
    // w = 0: a directional light; the position is transformed by the current (view) matrix.
    const std::array<float, 4> position = rgba(directions[i], 0.0);
    const std::array<float, 4> diffuse = rgba(Vec3::Constant(intensities[i]));
    const std::array<float, 4> specular = rgba(Vec3::Constant(i == 0 ? 0.25 : 0.0));
    glLightfv(ids[i], GL_POSITION, position.data());
    glLightfv(ids[i], GL_AMBIENT, none.data());
    glLightfv(ids[i], GL_DIFFUSE, diffuse.data());
    glLightfv(ids[i], GL_SPECULAR, specular.data());
    glEnable(ids[i]);
  }
  const std::array<float, 4> shine = rgba(Vec3::Constant(1.0));
  glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, shine.data());
  glMaterialf(GL_FRONT_AND_BACK, GL_SHININESS, 40.0f);
  glColorMaterial(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE);
  glEnable(GL_COLOR_MATERIAL);
}

void draw_ground(const GroundGrid& ground) {
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_COLOR_ARRAY);
  glVertexPointer(3, GL_FLOAT, 0, ground.positions.data());
  glColorPointer(3, GL_FLOAT, 0, ground.colours.data());
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(ground.positions.size() / 3));
  glDisableClientState(GL_COLOR_ARRAY);
  glDisableClientState(GL_VERTEX_ARRAY);
}

/// The flattened bodies, darkening the ground by `strength` once per pixel: the stencil starts at 0
/// and the first shadow fragment on a pixel passes (stencil == 0) and increments it, later ones fail.
void draw_shadows(const std::vector<float>& flattened, double strength) {
  glDisable(GL_DEPTH_TEST);  // they lie on the ground, which is drawn; the bodies come after
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_STENCIL_TEST);
  glStencilFunc(GL_EQUAL, 0, 0xFF);
  glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
  glColor4f(0.05f, 0.06f, 0.10f, float(strength));
  glEnableClientState(GL_VERTEX_ARRAY);
  glVertexPointer(3, GL_FLOAT, 0, flattened.data());
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(flattened.size() / 3));
  glDisableClientState(GL_VERTEX_ARRAY);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace

Image OffscreenRenderer::render(const RenderScene& scene, const std::vector<BodyPose>& poses, const Camera& camera,
                                const RenderStyle& style) {
  const int w = width_ * supersample_;
  const int h = height_ * supersample_;
  if (!OSMesaMakeCurrent(context_->handle, context_->buffer.data(), GL_UNSIGNED_BYTE, w, h))
    throw std::runtime_error("OSMesa cannot draw into a " + std::to_string(w) + "x" + std::to_string(h) + " buffer");
  glViewport(0, 0, w, h);
  glClearColor(float(style.background.x()), float(style.background.y()), float(style.background.z()), 1.0f);
  glClearDepth(1.0);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDisable(GL_CULL_FACE);
  glShadeModel(GL_SMOOTH);

  // Eigen stores column-major, as glLoadMatrixd expects.
  const auto [near, far] = clip_planes(scene.bounds, camera);
  const Mat4 projection = projection_matrix(camera.fov_deg, static_cast<double>(w) / h, near, far);
  const Mat4 view = view_matrix(camera);
  glMatrixMode(GL_PROJECTION);
  glLoadMatrixd(projection.data());
  glMatrixMode(GL_MODELVIEW);
  glLoadMatrixd(view.data());

  // Bodies posed once: the shadows and the shaded bodies use the same corners.
  positions_.clear();
  normals_.clear();
  std::vector<std::size_t> first(poses.size() + 1, 0);
  for (std::size_t b = 0; b < poses.size(); ++b) {
    if (drawable(poses[b])) append_posed(scene.meshes[b], poses[b], positions_, normals_);
    first[b + 1] = positions_.size() / 3;
  }

  glDisable(GL_LIGHTING);
  const Lights lights = camera_lights(camera);
  if (scene.ground && style.ground) draw_ground(*scene.ground);
  if (scene.ground && style.shadows && camera.position.z() > scene.ground->height) {
    shadow_.resize(positions_.size());
    for (std::size_t i = 0; i < positions_.size(); i += 3) {
      const Vec3 x(positions_[i], positions_[i + 1], positions_[i + 2]);
      const Vec3 s = shadow_point(x, lights.key, scene.ground->height);
      shadow_[i] = float(s.x());
      shadow_[i + 1] = float(s.y());
      shadow_[i + 2] = float(s.z());
    }
    draw_shadows(shadow_, 0.32);
  }

  glEnable(GL_LIGHTING);
  glEnable(GL_NORMALIZE);
  set_lights(lights);
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_NORMAL_ARRAY);
  glVertexPointer(3, GL_FLOAT, 0, positions_.data());
  glNormalPointer(GL_FLOAT, 0, normals_.data());
  for (std::size_t b = 0; b < poses.size(); ++b) {
    const Vec3& c = scene.colours[b];
    glColor3d(c.x(), c.y(), c.z());
    glDrawArrays(GL_TRIANGLES, static_cast<GLint>(first[b]), static_cast<GLsizei>(first[b + 1] - first[b]));
  }
  glDisableClientState(GL_NORMAL_ARRAY);
  glDisableClientState(GL_VERTEX_ARRAY);
  glFinish();
  return downsample(from_rgba_bottom_up(context_->buffer.data(), w, h), supersample_);
}

}  // namespace affix
