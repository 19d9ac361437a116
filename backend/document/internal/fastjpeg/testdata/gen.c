/* Writes the JPEG fixtures of fastjpeg's tests with libjpeg (kinds Go's
 * encoder does not write: other subsamplings, restart markers, progressive,
 * RGB, 16-bit quantization tables). Build and run in this folder:
 *   cc gen.c -ljpeg -o /tmp/gen && /tmp/gen
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <jpeglib.h>

static void pixel(int x, int y, int w, int h, unsigned char *p) {
	double fx = (double)x / w, fy = (double)y / h;
	int r = (int)(255 * fx), g = (int)(255 * fy), b = (int)(128 + 100 * sin(x * 0.2) * cos(y * 0.15));
	if ((x / 12 + y / 12) % 2 == 0 && x > w / 3 && x < 2 * w / 3) { r = 255 - r; g = 40; }
	if ((x - w / 2) * (x - w / 2) + (y - h / 3) * (y - h / 3) < (h / 5) * (h / 5)) { r = 250; g = 250; b = 20; }
	p[0] = r < 0 ? 0 : r > 255 ? 255 : r;
	p[1] = g < 0 ? 0 : g > 255 ? 255 : g;
	p[2] = b < 0 ? 0 : b > 255 ? 255 : b;
}

static void write(const char *name, int w, int h, int gray, int hs, int vs, int restart, int progressive, int rgb, int quality, int baseline) {
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;
	FILE *f = fopen(name, "wb");
	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	jpeg_stdio_dest(&c, f);
	c.image_width = w;
	c.image_height = h;
	c.input_components = gray ? 1 : 3;
	c.in_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
	jpeg_set_defaults(&c);
	if (rgb) jpeg_set_colorspace(&c, JCS_RGB);
	jpeg_set_quality(&c, quality, baseline);
	c.comp_info[0].h_samp_factor = hs;
	c.comp_info[0].v_samp_factor = vs;
	if (!gray) {
		c.comp_info[1].h_samp_factor = c.comp_info[1].v_samp_factor = 1;
		c.comp_info[2].h_samp_factor = c.comp_info[2].v_samp_factor = 1;
	}
	c.restart_interval = restart;
	if (progressive) jpeg_simple_progression(&c);
	jpeg_start_compress(&c, TRUE);
	unsigned char *row = malloc(w * 3);
	while (c.next_scanline < c.image_height) {
		int y = c.next_scanline;
		for (int x = 0; x < w; x++) {
			unsigned char p[3];
			pixel(x, y, w, h, p);
			if (gray) row[x] = (p[0] * 3 + p[1] * 6 + p[2]) / 10;
			else { row[3 * x] = p[0]; row[3 * x + 1] = p[1]; row[3 * x + 2] = p[2]; }
		}
		JSAMPROW r = row;
		jpeg_write_scanlines(&c, &r, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	fclose(f);
	free(row);
}

int main(void) {
	write("444.jpg", 203, 77, 0, 1, 1, 0, 0, 0, 90, 1);
	write("422.jpg", 203, 77, 0, 2, 1, 0, 0, 0, 90, 1);
	write("440.jpg", 203, 77, 0, 1, 2, 0, 0, 0, 90, 1);
	write("411.jpg", 203, 77, 0, 4, 1, 0, 0, 0, 90, 1);
	write("420-restart.jpg", 203, 77, 0, 2, 2, 3, 0, 0, 90, 1);
	write("gray-restart.jpg", 203, 77, 1, 1, 1, 5, 0, 0, 90, 1);
	write("gray-2x2.jpg", 203, 77, 1, 2, 2, 0, 0, 0, 90, 1);
	write("420-q3-16bit.jpg", 203, 77, 0, 2, 2, 0, 0, 0, 3, 0);
	write("progressive.jpg", 203, 77, 0, 2, 2, 0, 1, 0, 90, 1);
	write("rgb.jpg", 203, 77, 0, 1, 1, 0, 0, 1, 90, 1);
	return 0;
}
