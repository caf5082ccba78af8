/// The largest picture the decoder agrees to decode, checked against the file's header before
/// any pixel memory is allocated.
///
/// An attachment is a file anyone could have put there: a 100-byte PNG can declare
/// 60000 × 60000 pixels (14 GB of RGBA). A terminal pane shows a few hundred pixels, so the
/// limits can be far below what libpng and libjpeg would accept.
package struct DecodeLimits: Hashable, Sendable {
  /// Widest image accepted, in pixels.
  package var maxWidth: Int
  /// Tallest image accepted, in pixels.
  package var maxHeight: Int
  /// Most pixels accepted (width × height); the RGBA buffer is four bytes each.
  package var maxPixels: Int
  /// Most scans in a progressive JPEG: a small file with thousands of scans costs minutes of
  /// CPU, while real encoders write about ten.
  package var maxScans: Int

  /// Limits from their four values; each must be positive.
  package init(maxWidth: Int, maxHeight: Int, maxPixels: Int, maxScans: Int) {
    precondition(maxWidth > 0 && maxHeight > 0 && maxPixels > 0 && maxScans > 0)
    self.maxWidth = maxWidth
    self.maxHeight = maxHeight
    self.maxPixels = maxPixels
    self.maxScans = maxScans
  }

  /// 16384 pixels a side, 50 megapixels (200 MB of RGBA), 256 scans: any photo a phone or a
  /// camera takes today, nothing that is only a header.
  package static let standard = DecodeLimits(
    maxWidth: 16384, maxHeight: 16384, maxPixels: 50_000_000, maxScans: 256)
}
